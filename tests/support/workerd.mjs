// The local edge's workerd processes as the benchmarks see them from outside:
// which processes they are (those in `wrangler dev`'s process group), their
// resident memory and their open file descriptors, read from /proc.

import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** The workerd processes in the edge's process group (`pgid`: the edge's `pid`). */
export function workerdPids(pgid) {
  const pids = execFileSync('pgrep', ['-g', String(pgid)]).toString().trim().split('\n');
  return pids.filter((pid) => {
    try {
      // The program itself, not any process with "workerd" in its arguments.
      const program = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0];
      return program.endsWith('/workerd') || program === 'workerd';
    } catch {
      return false;
    }
  });
}

/** workerd's resident memory (KiB), all its processes in the edge's process group. */
export function workerdRssKb(pgid) {
  let total = 0;
  for (const pid of workerdPids(pgid)) {
    try {
      const rss = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      total += rss ? Number(rss[1]) : 0;
    } catch { /* gone */ }
  }
  return total;
}

/** Open file descriptors of each workerd process in the edge's process group (the hard limit is per process). */
export function workerdFds(pgid) {
  return workerdPids(pgid).map((pid) => {
    try { return readdirSync(`/proc/${pid}/fd`).length; } catch { return 0; }
  });
}

/**
 * Resident memory (KiB) of each of `wrangler dev`'s two workerd processes: `worker`, the one
 * that runs the Worker and its objects (started with an inspector), and `proxy`, wrangler's own
 * in front of it, which a deployment does not have. `pss` shares the pages both map (workerd's
 * binary) between them.
 */
export function workerdMemoryKb(pgid) {
  const memory = { worker: { rss: 0, pss: 0 }, proxy: { rss: 0, pss: 0 } };
  for (const pid of workerdPids(pgid)) {
    try {
      const role = readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--inspector-addr') ? 'worker' : 'proxy';
      const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
      memory[role].rss += Number(/^Rss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0);
      memory[role].pss += Number(/^Pss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0);
    } catch { /* gone */ }
  }
  return memory;
}
