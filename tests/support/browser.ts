// Launches Debian's Chromium through playwright-core (never a downloaded browser) for UI tests.

import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM_PATH = process.env.BENCHLAB_CHROMIUM ?? '/usr/bin/chromium';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}
