// What an e2e suite starts from: Benchlab in web mode on a data dir, its printed URL opened in
// Debian's Chromium, and the page connected to the back end. `beforeOpen` sets the page up before
// it loads (a route on its WebSocket, say); `close` ends the browser, then the app.

import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './browser.ts';
import { startWebApp, type RunningWebApp } from './web-app.ts';

export interface OpenWebApp {
  app: RunningWebApp;
  browser: Browser;
  page: Page;
  close(): Promise<void>;
}

export async function openWebApp(options: { dataDir: string; timeoutMs?: number; beforeOpen?: (page: Page) => Promise<void> }): Promise<OpenWebApp> {
  const app = await startWebApp({ dataDir: options.dataDir });
  const browser = await launchChromium().catch(async (error: unknown) => {
    await app.stop();
    throw error;
  });
  const close = async () => {
    await browser.close();
    await app.stop();
  };
  try {
    const page = await browser.newPage();
    page.setDefaultTimeout(options.timeoutMs ?? 15_000);
    await options.beforeOpen?.(page);
    await page.goto(app.url);
    await page.getByTestId('status-connection').filter({ hasText: 'Connected' }).waitFor();
    return { app, browser, page, close };
  } catch (error) {
    await close();
    throw error;
  }
}
