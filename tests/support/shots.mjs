// Screenshots of one screen at the two sizes people use (1366×768 and a
// 390×844 phone) in both colour schemes, each checked with axe-core first.

import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assertAccessible } from './axe.mjs';

/** Where the screenshots the docs show are kept. */
export const DOCS_SCREENSHOTS = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'docs', 'screenshots');

export const SIZES = [
  { width: 1366, height: 768 },
  { width: 390, height: 844 },
];

/**
 * For each size and scheme: resizes `page`, switches its colour scheme,
 * runs `arrange(page, size)` (to scroll what matters into view), asserts
 * axe finds nothing serious, and saves `docs/screenshots/{name}-{w}x{h}-{scheme}.png`.
 * Leaves the page light at the first size.
 */
export async function shootScreen(page, name, arrange = async () => {}) {
  await mkdir(DOCS_SCREENSHOTS, { recursive: true });
  for (const size of SIZES) {
    await page.setViewportSize(size);
    for (const colorScheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme });
      await arrange(page, size);
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      await assertAccessible(page, `${name} at ${size.width}×${size.height}, ${colorScheme}`);
      await page.screenshot({ path: join(DOCS_SCREENSHOTS, `${name}-${size.width}x${size.height}-${colorScheme}.png`) });
    }
  }
  await page.setViewportSize(SIZES[0]);
  await page.emulateMedia({ colorScheme: 'light' });
}
