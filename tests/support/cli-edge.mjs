// The set-up shared by the tests of the npm CLI against a real edge: the
// CLI's path, the stdio MCP server's, and an edge with a directory of member
// secrets kept apart from the user's, started before the file's tests and
// stopped (and removed) after them.

import { before, after } from 'node:test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEdge } from './edge.mjs';

const here = dirname(fileURLToPath(import.meta.url));
/** `agentnet-sdk`, the package's CLI. */
export const cli = join(here, '..', '..', 'core', 'js', 'bin', 'agentnet-sdk.js');
/** An official-SDK MCP server over stdio. */
export const stdioServer = join(here, 'mcp-stdio-server.mjs');

/** Registers the file's hooks; the answer's `edge` and `secrets` are set once they ran. */
export function edgeWithSecrets(prefix) {
  const setup = { edge: undefined, secrets: undefined };
  before(async () => {
    setup.secrets = await mkdtemp(join(tmpdir(), prefix));
    setup.edge = await startEdge();
  });
  after(async () => {
    await setup.edge?.stop();
    await rm(setup.secrets, { recursive: true, force: true });
  });
  return setup;
}
