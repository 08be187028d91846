// Node 20's `fs` has no `globSync` (Node 22 added it), which the MCP conformance
// CLI imports (for its tier-check report only). Loaded by `node-hooks.mjs` in
// place of `fs` for that package alone; the rest of `fs` is Node's own.
import fs from 'node:fs';
import { join, relative } from 'node:path';

export * from 'node:fs';
export default fs;

/** The subset the CLI uses: `globSync('**\/name', {cwd})`. */
export function globSync(pattern, { cwd = process.cwd() } = {}) {
  const name = pattern.replace(/^\*\*\//, '');
  const found = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name === name) found.push(relative(cwd, path));
    }
  };
  walk(cwd);
  return found;
}
