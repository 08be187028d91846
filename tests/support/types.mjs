// Checks values against the npm package's TypeScript declarations (core/js/index.d.ts)
// with the TypeScript compiler from the repository's root node_modules.
//
// Each value is written as an object literal assigned to its declared type, so
// `tsc --strict` refuses a missing field, a field of the wrong type and (by
// TypeScript's excess property check) a field the declaration does not have.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const pkg = join(root, 'core', 'js', 'index.js');

/**
 * Type-checks `samples` (`[[typeName, value], …]`, values as JSON) and the extra
 * TypeScript `code` against the package's declarations; resolves with
 * `{ok, output}` (the compiler's messages).
 */
export function checkTypes(samples, code = '') {
  const names = [...new Set(samples.map(([type]) => type).concat(['Agent']))];
  const lines = [`import type { ${names.join(', ')} } from ${JSON.stringify(pkg)};`];
  samples.forEach(([type, value], i) => {
    lines.push(`export const sample${i}: ${type} = ${JSON.stringify(value, null, 2)};`);
  });
  lines.push(code);
  const dir = mkdtempSync(join(tmpdir(), 'agentnet-types-'));
  try {
    const file = join(dir, 'answers.ts');
    writeFileSync(file, lines.join('\n'));
    const result = spawnSync(process.execPath, [
      tsc, '--noEmit', '--strict', '--target', 'es2022', '--module', 'esnext',
      '--moduleResolution', 'bundler', '--lib', 'es2022,dom', file,
    ], { encoding: 'utf8' });
    return { ok: result.status === 0, output: `${result.stdout}${result.stderr}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
