// A model of one network laid out over Cloudflare objects (docs/scale.md),
// fed by the figures measured with tests/bench/scale.mjs on this machine.
// Run: node tests/bench/scale-model.mjs [name=value …]
// Every input has a default (the measured figure, or the layout of
// docs/scale.md); pass name=value to change one. Prints the layout and where
// it saturates; asserts nothing.

const inputs = {
  // Measured (BENCHMARKS.md, "Scaling one network", from "10,000 agents,
  // straight to workerd" on: a quiet machine, clients straight to workerd's
  // entry socket); replace with your own runs.
  sustainedBatched: 80_803, // events/s one network object sequenced with batched frames ("where the sustained rate went")
  fanout1000P99Ms: 44.7, // ms until 1,000 sockets on one object all had a broadcast (the worst p99 of three runs, "fan-out to 1,000 under 50 ms"; sockets acking as the replica does)
  kibPerSocket: 202, // workerd memory per connected socket in wrangler dev, KiB (10,000 connected)
  // Platform limits (developers.cloudflare.com/durable-objects/platform/limits, Workers limits).
  memoryMb: 128,
  storageGb: 10,
  // The network.
  members: 1_000_000,
  online: 100_000,
  perGateway: 250,
  bytesPerMember: 400, // a member row in memory (address, role, status, secret hash, DID)
  bytesPerEvent: 500, // a log row with its audience rows
  eventsPerSecond: 2_000, // accepted events per second
  broadcastShare: 0.005, // the share of them that go to everyone (10 broadcasts/s here)
  hopMs: 5, // one object-to-object message in a colo
};
for (const arg of process.argv.slice(2)) {
  const [name, value] = arg.split('=');
  if (!(name in inputs)) throw new Error(`unknown input ${name}; known: ${Object.keys(inputs).join(', ')}`);
  inputs[name] = Number(value);
}
const m = inputs;

const gateways = Math.ceil(m.online / m.perGateway);
const gatewayMemoryMb = (m.perGateway * m.kibPerSocket) / 1024;
const memberTableMb = (m.members * m.bytesPerMember) / 1024 / 1024;
const sequencerMessagesPerS = m.eventsPerSecond * (1 + m.broadcastShare * gateways);
const sequencerLoad = m.eventsPerSecond / m.sustainedBatched;
const fanoutPerGatewayMs = (m.fanout1000P99Ms * m.perGateway) / 1000;
const broadcastMs = m.hopMs + fanoutPerGatewayMs;
const writesPerGatewayPerS = m.eventsPerSecond * m.broadcastShare * m.perGateway;
// One object's delivery capacity, from the measured fan-out to 1,000.
const deliveriesPerObjectPerS = (1000 / m.fanout1000P99Ms) * 1000;
const gatewayLoad = writesPerGatewayPerS / deliveriesPerObjectPerS;
const fittingPerGateway = Math.floor(deliveriesPerObjectPerS / Math.max(1e-9, m.eventsPerSecond * m.broadcastShare));
const storageHours = (m.storageGb * 1e9) / (m.bytesPerEvent * m.eventsPerSecond) / 3_600;
const oneObjectFanoutMs = (m.fanout1000P99Ms * m.online) / 1000;

const row = (what, value) => console.log(`${what.padEnd(58)} ${value}`);
console.log(`inputs: ${JSON.stringify(m)}`);
row('gateway objects', gateways);
row('memory per gateway (sockets only)', `${gatewayMemoryMb.toFixed(1)} MB of ${m.memoryMb} MB`);
row('member table if held in the sequencer', `${memberTableMb.toFixed(0)} MB of ${m.memoryMb} MB${memberTableMb > m.memoryMb / 2 ? '  <- must leave memory (member shards)' : ''}`);
row('sequencer load (accepted events / sustained capacity)', `${(sequencerLoad * 100).toFixed(0)} %${sequencerLoad > 1 ? '  <- saturated: shard the log by channel' : ''}`);
row('sequencer messages per second (acks + gateway messages)', Math.round(sequencerMessagesPerS));
row('broadcast to every online member, through gateways', `≈ ${broadcastMs.toFixed(0)} ms (one hop + one gateway's fan-out)`);
row('the same broadcast from one object holding every socket', `≈ ${oneObjectFanoutMs.toFixed(0)} ms`);
row('deliveries per gateway per second (broadcasts × members)', `${Math.round(writesPerGatewayPerS)} = ${(gatewayLoad * 100).toFixed(0)} % of one object's measured ${Math.round(deliveriesPerObjectPerS)}/s${gatewayLoad > 1 ? `  <- use ≤ ${fittingPerGateway} members per gateway` : ''}`);
row('hours of log until 10 GB (before retention)', storageHours.toFixed(1));
row('channel shards needed for this rate', Math.max(1, Math.ceil(sequencerLoad)));
