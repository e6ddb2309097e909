// What an e2e suite starts from: Benchlab in web mode on a data dir (a fresh one unless given, seeded
// first where asked), its
// printed URL opened in Debian's Chromium, and the page connected to the back end. `beforeOpen` sets
// the page up before it loads (a route on its WebSocket, say); the Content-Security-Policy refusals
// Chromium reports on the console are kept from the first load on; `close` ends the browser, then
// the app.

import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './browser.ts';
import { startWebApp, type RunningWebApp, type WebAppOptions } from './web-app.ts';

export interface OpenWebApp {
  app: RunningWebApp;
  browser: Browser;
  page: Page;
  /** The console's CSP refusals ("Refused to apply inline style … Content Security Policy"), in order. */
  cspViolations: string[];
  close(): Promise<void>;
}

export interface OpenWebAppOptions extends Pick<WebAppOptions, 'dataDir' | 'seed'> {
  /** The page's default wait for locators and navigation. */
  timeoutMs?: number;
  viewport?: { width: number; height: number };
  beforeOpen?: (page: Page) => Promise<void>;
}

export async function openWebApp(options: OpenWebAppOptions = {}): Promise<OpenWebApp> {
  const app = await startWebApp({ dataDir: options.dataDir, seed: options.seed });
  const browser = await launchChromium().catch(async (error: unknown) => {
    await app.stop();
    throw error;
  });
  const close = async () => {
    await browser.close();
    await app.stop();
  };
  try {
    const page = await browser.newPage(options.viewport ? { viewport: options.viewport } : {});
    page.setDefaultTimeout(options.timeoutMs ?? 15_000);
    const cspViolations: string[] = [];
    page.on('console', (message) => {
      if (/Content.Security.Policy/i.test(message.text())) cspViolations.push(message.text());
    });
    await options.beforeOpen?.(page);
    await page.goto(app.url);
    await page.getByTestId('status-connection').filter({ hasText: 'Connected' }).waitFor();
    return { app, browser, page, cspViolations, close };
  } catch (error) {
    await close();
    throw error;
  }
}
