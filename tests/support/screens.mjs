// Screenshots for looking at a screen before saying it is done: the page as it
// is now, light and dark, checked with axe-core in each scheme, saved as
// `{name}-{size}-{scheme}.png` in tests/output/screenshots (or SCREENSHOTS_DIR,
// e.g. docs/screenshots for the README).

import { mkdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assertAccessible } from './axe.mjs';

const here = dirname(fileURLToPath(import.meta.url));
export const SCREENSHOTS = resolve(process.env.SCREENSHOTS_DIR ?? join(here, '..', 'output', 'screenshots'));
export const PHONE = { width: 390, height: 844 };
export const WIDE = { width: 1366, height: 768 };

/** Checks and captures `page` in both colour schemes; leaves it light. */
export async function shoot(page, name, size) {
  await mkdir(SCREENSHOTS, { recursive: true });
  for (const colorScheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme });
    await assertAccessible(page, `${name} at ${size} (${colorScheme})`);
    await page.screenshot({ path: join(SCREENSHOTS, `${name}-${size}-${colorScheme}.png`) });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** `shoot` at the wide size and the phone size, then back to wide. */
export async function shootBothSizes(page, name) {
  for (const [size, viewport] of [['wide', WIDE], ['phone', PHONE]]) {
    await page.setViewportSize(viewport);
    await shoot(page, name, size);
  }
  await page.setViewportSize(WIDE);
}
