// A `node --test` reporter that writes how long each test file took, longest
// first: the runner's own figure for the file's process (`test:complete` of
// the file, its edge's and browser's start-up included). `scripts/test` writes
// it beside the build (`$CARGO_TARGET_DIR/e2e-file-times.txt`), so a slow run
// shows which files its end-to-end minutes went to.

/** Wall seconds per test file, one line each, longest first. */
export default async function* fileTimes(source) {
  const seconds = new Map();
  for await (const event of source) {
    const { file, name, details } = event.data ?? {};
    if (event.type === 'test:complete' && file && name === file && details?.duration_ms !== undefined) {
      seconds.set(file, details.duration_ms / 1000);
    }
  }
  const rows = [...seconds].sort((a, b) => b[1] - a[1]);
  for (const [file, took] of rows) {
    yield `${took.toFixed(1).padStart(7)} s  ${file.replace(/^.*?\/tests\//, 'tests/')}\n`;
  }
}
