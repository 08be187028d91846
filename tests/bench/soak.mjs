// The soak under load and faults:
// `node tests/bench/soak.mjs [--agents 200] [--minutes 10] [--kills 5] [--rate 0.5] [--seed 1]`.
// Prints workerd's memory each minute, then what the edge acknowledged and
// what arrived: lost and duplicated must be 0 (see tests/support/soak.mjs).

import { parseArgs } from 'node:util';
import { soak } from '../support/soak.mjs';

const { values } = parseArgs({
  options: {
    agents: { type: 'string', default: '200' },
    churners: { type: 'string', default: '20' },
    minutes: { type: 'string', default: '10' },
    kills: { type: 'string', default: '0' },
    rate: { type: 'string', default: '0.5' },
    seed: { type: 'string', default: '1' },
  },
});

const started = Date.now();
const figures = await soak({
  agents: Number(values.agents),
  churners: Number(values.churners),
  durationMs: Number(values.minutes) * 60_000,
  kills: Number(values.kills),
  ratePerAgent: Number(values.rate),
  seed: Number(values.seed),
  log: (line) => console.log(`[${Math.round((Date.now() - started) / 1000)} s] ${line}`),
});
const { memory, ...rest } = figures;
console.log(JSON.stringify(rest, null, 2));
console.log(`workerd MiB by minute: ${memory.map((m) => m.workerdMiB).join(' ')}`);
process.exit(figures.lost === 0 && figures.duplicates === 0 && figures.unacked === 0 ? 0 : 1);
