// Launches Debian's Chromium through playwright-core (never a downloaded browser) for UI tests, and
// the auto-retrying expectations those tests wait with.

import { chromium, type Browser, type Locator } from 'playwright-core';

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

// Auto-retrying expectations (playwright-core has no `expect`): each waits, through Playwright's own
// locator waits, until the page shows what is expected, and fails with what it shows after the
// timeout (the page's default unless given). UI tests use these instead of loops with sleeps.

interface WaitOptions {
  timeout?: number;
}

/** What an element's text, attribute or count is now, for the failure message. */
async function shownNow(read: () => Promise<string | number | null>): Promise<string> {
  try {
    return JSON.stringify(await read());
  } catch (error) {
    return `unreadable (${(error as Error).message.split('\n')[0]})`;
  }
}

async function withMessage<T>(wait: Promise<T>, expected: string, read: () => Promise<string | number | null>): Promise<T> {
  try {
    return await wait;
  } catch (error) {
    throw new Error(`expected ${expected}; the page shows ${await shownNow(read)}`, { cause: error });
  }
}

/** Waits until the (first) element's text contains `expected` (a string) or matches it (a RegExp); returns the text. */
export async function expectText(locator: Locator, expected: string | RegExp, options: WaitOptions = {}): Promise<string> {
  const matching = locator.filter({ hasText: expected }).first();
  await withMessage(matching.waitFor(options), `${locator} to show ${expected}`, () => locator.first().innerText({ timeout: 1000 }));
  return matching.innerText();
}

/** Waits until exactly `count` elements match (zero: until every one is gone). */
export async function expectCount(locator: Locator, count: number, options: WaitOptions = {}): Promise<void> {
  const read = () => locator.count();
  if (count > 0) await withMessage(locator.nth(count - 1).waitFor({ ...options, state: 'attached' }), `${count} of ${locator}`, read);
  await withMessage(locator.nth(count).waitFor({ ...options, state: 'detached' }), `no more than ${count} of ${locator}`, read);
  // Both waits are over: the count is now what was expected (unless it moved on, which fails here).
  const now = await locator.count();
  if (now !== count) throw new Error(`expected ${count} of ${locator}, the page shows ${now}`);
}

/** The attribute's value (a string: exactly; a list: any of them; `atLeast`: a number not below it). */
export type ExpectedAttribute = string | readonly string[] | { atLeast: number };

/** Waits until the (first) element's attribute is as expected; returns its value. */
export async function expectAttribute(locator: Locator, name: string, expected: ExpectedAttribute, options: WaitOptions = {}): Promise<string> {
  const element = locator.first();
  const read = () => element.getAttribute(name, { timeout: 1000 });
  if (typeof expected === 'object' && 'atLeast' in expected) {
    const handle = await element.elementHandle(options);
    const atLeast = expected.atLeast;
    await withMessage(
      element.page().waitForFunction(({ target, attribute, least }) => Number(target.getAttribute(attribute) ?? NaN) >= least, { target: handle as unknown as PageElement, attribute: name, least: atLeast }, options),
      `${name} of ${locator} to be at least ${atLeast}`,
      read,
    );
  } else {
    const values = typeof expected === 'string' ? [expected] : expected;
    const selector = `:is(${values.map((value) => `[${name}=${JSON.stringify(value)}]`).join(', ')})`;
    await withMessage(element.and(element.page().locator(selector)).waitFor(options), `${name} of ${locator} to be ${values.join(' or ')}`, read);
  }
  return (await element.getAttribute(name)) ?? '';
}

/** The little of an element the page-side check uses (tests type-check without the DOM lib). */
type PageElement = { getAttribute(name: string): string | null };
