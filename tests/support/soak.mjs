// A soak of the local edge: many npm agents on one network for a while,
// sending direct and channel messages, leaving and rejoining, dropping their
// connections and reconnecting, at random, while `wrangler dev` may be killed
// with SIGKILL and restarted on the same state. Every message the edge
// acknowledged is then checked at each recipient: lost (never arrived),
// duplicated (one connection's handler saw it twice), and redelivered (a new
// connection of the same member got it again: at-least-once, allowed).
// Used by tests/bench/soak.mjs (figures) and tests/e2e/edge/soak.test.mjs (short run).

import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { Agent } from '../../core/js/index.js';
import { createNetwork, startEdge } from './edge.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A small seeded PRNG (mulberry32), so a run can be repeated. */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Resident memory (MiB) of the edge's processes: workerd and wrangler, by process group. */
export function edgeMemory(pgid) {
  try {
    const lines = execFileSync('ps', ['-eo', 'pgid=,rss=,comm='], { encoding: 'utf8' }).split('\n');
    let workerd = 0;
    let other = 0;
    for (const line of lines) {
      const [group, rss, comm] = line.trim().split(/\s+/);
      if (Number(group) !== pgid) continue;
      if (comm?.includes('workerd')) workerd += Number(rss);
      else other += Number(rss);
    }
    return { workerdMiB: Math.round(workerd / 1024), wranglerMiB: Math.round(other / 1024) };
  } catch {
    return { workerdMiB: NaN, wranglerMiB: NaN };
  }
}

/**
 * Runs the soak; resolves with its figures. Options: `agents` (members that
 * receive and send), `churners` (members that also leave and rejoin; they are
 * never sent tracked messages, since a member that left is owed nothing),
 * `channels`, `durationMs`, `kills` (SIGKILLs of the edge, evenly spaced),
 * `ratePerAgent` (actions per second per agent), `seed`, `log` (progress lines).
 */
export async function soak({
  agents = 200, churners = 20, channels = 5, durationMs = 600_000, kills = 0,
  ratePerAgent = 0.5, seed = 1, log = () => {}, settleMs = 120_000,
} = {}) {
  const random = prng(seed);
  const pick = (list) => list[Math.floor(random() * list.length)];
  const stateDir = await mkdtemp(join(tmpdir(), 'agentnet-soak-'));
  let edge = await startEdge({ stateDir });
  const { port } = edge;
  const { id: network } = await createNetwork(edge.url, { name: 'soak', access: { policy: 'open' } });
  const url = edge.url;
  const channelNames = Array.from({ length: channels }, (_, i) => `soak-${i}`);

  // Who should get what: message key (in the payload) → the addresses that are owed it.
  const owed = new Map();
  // Per member: ids seen by any connection, and per connection, how often.
  const seen = new Map();
  const figures = { sent: 0, acked: 0, failedSends: 0, reconnects: 0, leaves: 0, kills: 0, memory: [] };

  const members = [];
  const details = new Map();
  const events = [];
  const connect = async (name, memberSecret) => {
    const agent = await Agent.connect({ url, network, name, WebSocket, memberSecret, timeoutMs: 60_000 });
    const connection = new Map();
    const record = (event) => {
      const key = event.payload?.key;
      const ids = seen.get(name);
      ids.redelivered += ids.all.has(key) && !connection.has(key) ? 1 : 0;
      ids.all.add(key);
      connection.set(key, (connection.get(key) ?? 0) + 1);
      if (connection.get(key) > 1) ids.duplicates += 1;
    };
    agent.on('soak.msg', record);
    return agent;
  };

  // Comes back as the same member; while the edge is down (killed), tries again.
  const reconnect = async (member) => {
    for (let attempt = 0; ; attempt += 1) {
      try {
        member.agent = await connect(member.name, member.secret);
        member.secret = member.agent.memberSecret;
        events.push({ name: member.name, what: 'joined', at: Date.now() });
        return;
      } catch {
        events.push({ name: member.name, what: 'joinfailed', at: Date.now() });
        await sleep(Math.min(5000, 250 * 2 ** attempt));
      }
    }
  };

  const everyone = [
    ...Array.from({ length: agents }, (_, i) => ({ name: `agent:soak-${i}`, churns: false })),
    ...Array.from({ length: churners }, (_, i) => ({ name: `agent:churn-${i}`, churns: true })),
  ];
  for (const spec of everyone) {
    seen.set(spec.name, { all: new Set(), duplicates: 0, redelivered: 0 });
    const member = { ...spec, agent: await connect(spec.name), busy: false, rooms: new Set() };
    member.secret = member.agent.memberSecret;
    members.push(member);
  }
  const receivers = members.filter((m) => !m.churns);
  // Channel membership is fixed for receivers, so who is owed a channel message is known at send time.
  for (const member of receivers) {
    for (const room of channelNames) {
      if (random() < 0.3) member.rooms.add(room);
    }
  }
  const creator = receivers[0].agent;
  for (const room of channelNames) await creator.createChannel(room).catch(() => {});
  for (const member of receivers) {
    for (const room of member.rooms) await member.agent.joinChannel(room);
  }
  log(`${members.length} members joined network ${network}; load for ${Math.round(durationMs / 1000)} s`);

  const send = (member, target, recipients) => {
    figures.sent += 1;
    const key = `${member.name}#${figures.sent}`;
    const sentAt = Date.now();
    member.agent.send(target, 'soak.msg', { key }, { timeoutMs: 300_000 }).then(() => {
      figures.acked += 1;
      owed.set(key, recipients);
      details.set(key, { target, sentAt, ackedAt: Date.now() });
    }, () => { figures.failedSends += 1; });
  };

  const act = async (member) => {
    if (member.busy) return;
    const roll = random();
    if (roll < 0.65) {
      const to = pick(receivers);
      // A member is not sent its own events.
      if (to !== member) send(member, to.name, [to.name]);
    } else if (roll < 0.85 && !member.churns) {
      const room = pick([...member.rooms]);
      if (room) send(member, `channel/${room}`, receivers.filter((r) => r.rooms.has(room) && r.name !== member.name).map((r) => r.name));
    } else if (roll < 0.93) {
      // Drop the connection and come back as the same member.
      member.busy = true;
      figures.reconnects += 1;
      events.push({ name: member.name, what: 'close', at: Date.now() });
      member.agent.close();
      member.agent = null;
      await sleep(random() * 2000);
      await reconnect(member);
      member.busy = false;
    } else if (member.churns) {
      member.busy = true;
      figures.leaves += 1;
      const leaving = member.agent;
      member.agent = null;
      await leaving.leave();
      await sleep(random() * 3000);
      await reconnect(member);
      member.busy = false;
    }
  };

  const start = Date.now();
  const killTimes = Array.from({ length: kills }, (_, i) => start + ((i + 1) * durationMs) / (kills + 1));
  let nextMinute = start + 60_000;
  const tickMs = 100;
  while (Date.now() - start < durationMs) {
    const chance = (ratePerAgent * tickMs) / 1000;
    for (const member of members) {
      if (member.agent && random() < chance) act(member).catch(() => { member.busy = false; });
    }
    if (killTimes.length && Date.now() >= killTimes[0]) {
      killTimes.shift();
      figures.kills += 1;
      log(`kill -9 of wrangler dev (${figures.kills}/${kills})`);
      await edge.kill();
      await sleep(1000);
      edge = await startEdge({ stateDir, port });
    }
    if (Date.now() >= nextMinute) {
      nextMinute += 60_000;
      const memory = edgeMemory(edge.pid);
      figures.memory.push(memory);
      log(`minute ${figures.memory.length}: sent ${figures.sent}, acked ${figures.acked}, workerd ${memory.workerdMiB} MiB, wrangler ${memory.wranglerMiB} MiB`);
    }
    await sleep(tickMs);
  }
  log(`load over: ${figures.sent} sent, ${figures.acked} acked; waiting for deliveries`);

  const missing = () => {
    let lost = 0;
    for (const [id, recipients] of owed) {
      for (const name of recipients) if (!seen.get(name).all.has(id)) lost += 1;
    }
    return lost;
  };
  const settleUntil = Date.now() + settleMs;
  while ((figures.acked + figures.failedSends < figures.sent || missing() > 0) && Date.now() < settleUntil) {
    await sleep(500);
  }
  await sleep(1000); // room for a late duplicate
  figures.owedDeliveries = [...owed.values()].reduce((sum, r) => sum + r.length, 0);
  figures.lost = missing();
  if (process.env.SOAK_DEBUG) {
    let shown = 0;
    for (const [key, recipients] of owed) {
      for (const name of recipients) {
        if (!seen.get(name).all.has(key) && shown++ < 15) {
          const d = details.get(key);
          const around = events.filter((e) => e.name === name && Math.abs(e.at - d.sentAt) < 5000).map((e) => `${e.what}@${e.at - d.sentAt}`);
          console.log('lost', key, '→', name, d.target, 'acked after', d.ackedAt - d.sentAt, 'ms', 'at', d.sentAt - start, around.join(' '));
        }
      }
    }
  }
  figures.duplicates = [...seen.values()].reduce((sum, s) => sum + s.duplicates, 0);
  figures.redelivered = [...seen.values()].reduce((sum, s) => sum + s.redelivered, 0);
  figures.unacked = figures.sent - figures.acked - figures.failedSends;
  figures.memory.push(edgeMemory(edge.pid));
  for (const member of members) member.agent?.close();
  await edge.stop();
  await rm(stateDir, { recursive: true, force: true });
  return figures;
}
