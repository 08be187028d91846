// Screenshots for looking at a screen before saying it is done, at the two
// sizes the workspace is designed for (1366×768 and a 390×844 phone), light
// and dark, each checked with axe-core first. They land in
// AGENTNET_SCREENSHOTS when it names a folder (docs/screenshots refreshes the
// README's), else in tests/output/screenshots (not tracked).

import { mkdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assertAccessible } from './axe.mjs';

const here = dirname(fileURLToPath(import.meta.url));
/** Where screenshots are written. */
export const SCREENSHOTS = resolve(process.env.AGENTNET_SCREENSHOTS ?? join(here, '..', 'output', 'screenshots'));
export const WIDE = { width: 1366, height: 768 };
export const PHONE = { width: 390, height: 844 };
export const SIZES = { wide: WIDE, phone: PHONE };

const settle = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

/** Checks and captures `page` as it is now in both schemes as `{name}-{size}-{scheme}.png`; leaves it light. */
export async function shootAt(page, name, size) {
  await mkdir(SCREENSHOTS, { recursive: true });
  for (const colorScheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme });
    await settle(page);
    await assertAccessible(page, `${name} at ${size} (${colorScheme})`);
    await page.screenshot({ path: join(SCREENSHOTS, `${name}-${size}-${colorScheme}.png`) });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/**
 * `shootAt` at both sizes; `ready(page, viewport)` (optional) runs after each
 * change of size, before the captures. The page is left at its first size, light.
 */
export async function shoot(page, name, ready = async () => {}) {
  const before = page.viewportSize();
  for (const [size, viewport] of Object.entries(SIZES)) {
    await page.setViewportSize(viewport);
    await readyAgainIfReplaced(ready, page, viewport);
    await shootAt(page, name, size);
  }
  if (before) await page.setViewportSize(before);
}

/**
 * Runs `ready(page, viewport)`, again when an element it was scrolling to was replaced while
 * it ran (a list that re-renders at the new size, a message its ack redraws): Playwright
 * resolves a locator once per action and does not retry scrolling a detached element.
 */
async function readyAgainIfReplaced(ready, page, viewport) {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await ready(page, viewport);
    } catch (error) {
      if (attempt >= 5 || !/not attached to the DOM/.test(String(error?.message))) throw error;
    }
  }
}

/** The same as `shoot` (the name the tools, tasks and documents tests use). */
export const shootScreen = shoot;
