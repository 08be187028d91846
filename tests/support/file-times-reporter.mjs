// A `node --test` reporter that keeps how long each test file took, longest
// first, in the file `AGENTNET_FILE_TIMES` names (`scripts/test`: beside the
// build, `e2e-file-times.txt`): the runner's own figure for the file's process
// (`test:complete` of the file, its edge's and browser's start-up included),
// so a slow run shows which files its end-to-end minutes went to. The table is
// rewritten as each file ends, because `--test-force-exit` ends the run before
// a reporter's own output would be flushed; it prints nothing itself.

import { writeFileSync } from 'node:fs';

/** Rewrites the table of wall seconds per file whenever a file completes. */
export default async function* fileTimes(source) {
  const path = process.env.AGENTNET_FILE_TIMES;
  const seconds = new Map();
  for await (const event of source) {
    const { file, name, details } = event.data ?? {};
    if (!path || event.type !== 'test:complete' || !file || name !== file || details?.duration_ms === undefined) continue;
    seconds.set(file, details.duration_ms / 1000);
    const rows = [...seconds].sort((a, b) => b[1] - a[1]);
    writeFileSync(path, rows.map(([f, took]) => `${took.toFixed(1).padStart(7)} s  ${f.replace(/^.*?\/tests\//, 'tests/')}\n`).join(''));
  }
  yield* [];
}
