// A `node --test` reporter that keeps how long each test file took, longest
// first, in the file `AGENTNET_FILE_TIMES` names (`scripts/test`: beside the
// build, `e2e-file-times.txt`): the runner's own figure for the file's process
// (`test:complete` of the file, its edge's and browser's start-up included),
// so a slow run shows which files its end-to-end minutes went to. The table is
// rewritten as each file ends, because `--test-force-exit` ends the run before
// a reporter's own output would be flushed; it prints nothing itself. Rows
// already in the table (an earlier `node --test` of the same run: scripts/test
// runs the deploy check on its own after the rest) are kept.

import { existsSync, readFileSync, writeFileSync } from 'node:fs';

/** The rows of a table this reporter wrote: seconds by file as shown. */
function rowsIn(path) {
  if (!path || !existsSync(path)) return [];
  return readFileSync(path, 'utf8').split('\n').flatMap((line) => {
    const row = line.match(/^\s*([\d.]+) s {2}(.+)$/);
    return row ? [[row[2], Number(row[1])]] : [];
  });
}

const shown = (file) => file.replace(/^.*?\/tests\//, 'tests/');

/** Rewrites the table of wall seconds per file whenever a file completes. */
export default async function* fileTimes(source) {
  const path = process.env.AGENTNET_FILE_TIMES;
  const seconds = new Map(rowsIn(path));
  for await (const event of source) {
    const { file, name, details } = event.data ?? {};
    if (!path || event.type !== 'test:complete' || !file || name !== file || details?.duration_ms === undefined) continue;
    seconds.set(shown(file), details.duration_ms / 1000);
    const rows = [...seconds].sort((a, b) => b[1] - a[1]);
    writeFileSync(path, rows.map(([f, took]) => `${took.toFixed(1).padStart(7)} s  ${f}\n`).join(''));
  }
  yield* [];
}
