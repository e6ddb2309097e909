// The Content-Security-Policy violations a page reports, of every directive, from its own
// `securitypolicyviolation` events (the directive, what was blocked and where) rather than from the
// console's wording. Kept in the tab's sessionStorage, so a reload keeps what came before it.

import type { Page } from 'playwright-core';

/** What the page's listener sees of a violation (the callbacks run in the page, type-checked with Node's types). */
type ViolationEvent = { effectiveDirective: string; blockedURI: string; sourceFile: string; lineNumber: number };
type ViolationPage = {
  document: { addEventListener(type: 'securitypolicyviolation', listener: (event: ViolationEvent) => void): void };
  sessionStorage: { getItem(key: string): string | null; setItem(key: string, value: string): void };
};
const VIOLATIONS_KEY = 'e2e-csp-violations';

/** Records every violation the page reports from its next load on; call before it loads. */
export async function recordCspViolations(page: Page): Promise<void> {
  await page.addInitScript((key) => {
    const { document, sessionStorage } = globalThis as unknown as ViolationPage;
    document.addEventListener('securitypolicyviolation', (event) => {
      const seen = JSON.parse(sessionStorage.getItem(key) ?? '[]') as string[];
      seen.push(`${event.effectiveDirective} refused ${event.blockedURI} at ${event.sourceFile}:${event.lineNumber}`);
      sessionStorage.setItem(key, JSON.stringify(seen));
    });
  }, VIOLATIONS_KEY);
}

/**
 * The violations recorded so far, in order: "<directive> refused <blocked URI> at <file>:<line>".
 * Read in the page, so after every event its earlier work queued.
 */
export async function recordedCspViolations(page: Page): Promise<string[]> {
  return await page.evaluate((key) => JSON.parse((globalThis as unknown as ViolationPage).sessionStorage.getItem(key) ?? '[]') as string[], VIOLATIONS_KEY);
}
