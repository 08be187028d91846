// Accessibility checks with axe-core (pinned in the root package.json): runs
// axe in a Playwright page and fails on any serious or critical violation,
// naming each rule, its help and the elements it found.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
let source = null;

/** The violations of impact `serious` or `critical` axe finds in `page` now. */
export async function seriousViolations(page) {
  source ??= await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) {
    // Evaluated, not added as a <script>: the workspace's CSP (www/_headers) refuses inline scripts.
    await page.evaluate(source);
  }
  const violations = await page.evaluate(async () => {
    const results = await window.axe.run(document, { resultTypes: ['violations'] });
    return results.violations.map((v) => ({
      id: v.id, impact: v.impact, help: v.help,
      nodes: v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary}`),
    }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Asserts that axe finds no serious or critical violation on `screen` (shown in the message). */
export async function assertAccessible(page, screen) {
  const found = await seriousViolations(page);
  assert.deepEqual(
    found.map((v) => `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes.slice(0, 5).join('\n    ')}`),
    [],
    `axe on ${screen} (${page.url()})`,
  );
}

/** `assertAccessible` on `page` as it is now in the light and the dark colour scheme; leaves it light. */
export async function assertAccessibleInBothSchemes(page, screen) {
  for (const colorScheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme });
    await assertAccessible(page, `${screen} (${colorScheme})`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}
