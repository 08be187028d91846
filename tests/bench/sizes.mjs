// The size of each WebAssembly output `scripts/test` builds, raw and gzip (zlib level 9),
// and with `--check` a budget for each: the run fails when an output grows
// past its budget (tests/bench/size-budgets.json), so growth is a decision
// written down (raise the budget in the same commit, with the figure in
// BENCHMARKS.md), never an accident. Lowering a budget after a saving keeps it.
//
//   node tests/bench/sizes.mjs            prints the table
//   node tests/bench/sizes.mjs --check    and fails over a budget
//
// SIZE_BUDGETS names another budgets file (the scripts' own test uses it).

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const budgetsFile = process.env.SIZE_BUDGETS ?? join(root, 'tests', 'bench', 'size-budgets.json');
const { outputs } = JSON.parse(readFileSync(budgetsFile, 'utf8'));
const check = process.argv.includes('--check');
const group = (n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

// The files a budget's path names: one file, or with `*` in its last part every match (summed:
// the web workspace's parts loaded when first opened); a list of paths is every file each names
// (summed: what the first page fetches, each file compressed on its own as the server sends it).
function filesOf(path) {
  if (Array.isArray(path)) return path.flatMap(filesOf);
  if (!path.includes('*')) return existsSync(join(root, path)) ? [join(root, path)] : [];
  const folder = dirname(path);
  const pattern = new RegExp(`^${path.slice(folder.length + 1).split('*').map((p) => p.replace(/[.]/g, '\\.')).join('.*')}$`);
  if (!existsSync(join(root, folder))) return [];
  return readdirSync(join(root, folder)).filter((name) => pattern.test(name)).map((name) => join(root, folder, name));
}

const over = [];
console.log(`${'output'.padEnd(44)} ${'raw'.padStart(11)} ${'gzip'.padStart(11)} ${'budget'.padStart(11)} ${'goal'.padStart(11)}`);
for (const { path: paths, label, what, gzip_budget: budget, goal } of outputs) {
  const path = label ?? paths;
  const files = filesOf(paths);
  if (files.length === 0) {
    over.push(`${path} (${what}) is missing: build it first`);
    continue;
  }
  let raw = 0;
  let gzip = 0;
  for (const file of files) {
    const bytes = readFileSync(file);
    raw += bytes.length;
    gzip += gzipSync(bytes, { level: 9 }).length;
  }
  console.log(`${path.padEnd(44)} ${group(raw).padStart(11)} ${group(gzip).padStart(11)} ${group(budget).padStart(11)} ${(goal ? group(goal) : '').padStart(11)}`);
  if (gzip > budget) over.push(`${path} (${what}) is ${group(gzip)} B gzip, over its budget of ${group(budget)} B by ${group(gzip - budget)} B`);
}
if (check && over.length > 0) {
  console.error(`\nOver budget (${budgetsFile}):\n  ${over.join('\n  ')}`);
  console.error('Make it smaller, or raise its budget in the same commit and record why in BENCHMARKS.md.');
  process.exit(1);
}
