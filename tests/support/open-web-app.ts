// What an e2e suite starts from: Benchlab in web mode on a data dir (a fresh one unless given, seeded
// first where asked), its printed URL opened in Debian's Chromium, and the page connected to the back
// end. `beforeOpen` sets the page up before it loads (a route on its WebSocket, say). Every CSP
// violation the page reports, of any directive and across reloads, is recorded from the first load
// on: the renderer needs no exception to the policy, so a suite can require none. `close` ends the
// browser, then the app.

import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './browser.ts';
import { recordCspViolations, recordedCspViolations } from './csp-violations.ts';
import { startWebApp, type RunningWebApp, type WebAppOptions } from './web-app.ts';

export interface OpenWebApp {
  app: RunningWebApp;
  browser: Browser;
  page: Page;
  /** The page's CSP violations so far, in order: "<directive> refused <blocked URI> at <file>:<line>". */
  cspViolations(): Promise<string[]>;
  close(): Promise<void>;
}

export interface OpenWebAppOptions extends Pick<WebAppOptions, 'dataDir' | 'seed'> {
  /** The page's default wait for locators and navigation. */
  timeoutMs?: number;
  viewport?: { width: number; height: number };
  /** Browser permissions the page is granted ("clipboard-read", say). */
  permissions?: string[];
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
    const context = await browser.newContext({ ...(options.viewport ? { viewport: options.viewport } : {}), permissions: options.permissions ?? [] });
    const page = await context.newPage();
    page.setDefaultTimeout(options.timeoutMs ?? 15_000);
    await recordCspViolations(page);
    await options.beforeOpen?.(page);
    await page.goto(app.url);
    await page.getByTestId('status-connection').filter({ hasText: 'Connected' }).waitFor();
    return { app, browser, page, cspViolations: () => recordedCspViolations(page), close };
  } catch (error) {
    await close();
    throw error;
  }
}
