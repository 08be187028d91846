// Screenshots of a screen at the two sizes the workspace is designed for
// (1366×768 and 390×844), light and dark, taken when AGENTNET_SCREENSHOTS
// names a folder (e.g. docs/screenshots); otherwise nothing is taken.

import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';

export const SIZES = { wide: { width: 1366, height: 768 }, phone: { width: 390, height: 844 } };

/**
 * Captures `page` as `{name}-{size}-{scheme}.png` in AGENTNET_SCREENSHOTS, at
 * both sizes and in both schemes; `ready` (optional) runs after each change
 * of size, before the capture. The page is left at its first size, light.
 */
export async function shoot(page, name, ready = async () => {}) {
  const dir = process.env.AGENTNET_SCREENSHOTS;
  if (!dir) return;
  await mkdir(dir, { recursive: true });
  const before = page.viewportSize();
  for (const [size, viewport] of Object.entries(SIZES)) {
    await page.setViewportSize(viewport);
    await ready();
    for (const colorScheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme });
      await page.waitForTimeout(150);
      await page.screenshot({ path: join(dir, `${name}-${size}-${colorScheme}.png`) });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  if (before) await page.setViewportSize(before);
}
