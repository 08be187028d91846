// Launches Debian's Chromium through playwright-core with the flags this
// machine needs (no sandbox as root, no background networking).

import { chromium } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function launchBrowser() {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ],
  });
}

/** Opens the workspace at `url` in `page` and waits until it has joined its network. */
export async function openWorkspace(page, url) {
  await page.goto(`${url}/`);
  await page.getByRole('status').filter({ hasText: 'online' }).waitFor({ timeout: 15_000 });
}
