// Page objects of the Sessions library (with replay) and the Compare page.

import type { Locator, Page } from 'playwright-core';

export class SessionsLibrary {
  readonly page: Page;
  constructor(page: Page) {
    this.page = page;
  }

  async open(): Promise<void> {
    await this.page.getByTestId('nav-sessions').click();
    await this.page.getByTestId('page-sessions').waitFor();
  }

  row(name: string): Locator {
    return this.page.getByTestId('session-row').filter({ has: this.page.getByTestId('session-name').getByText(name, { exact: true }) });
  }

  async names(): Promise<string[]> {
    return this.page.getByTestId('session-name').allInnerTexts();
  }

  async search(text: string): Promise<void> {
    await this.page.getByTestId('sessions-search').fill(text);
  }
}

export class ComparePage {
  readonly page: Page;
  constructor(page: Page) {
    this.page = page;
  }

  /** Values of one column (by key) per session name, for one sweep step. */
  async column(step: string, key: string): Promise<Array<{ value: string; best: boolean }>> {
    const cells = this.page.locator(`[data-testid="compare-step"][data-step="${step}"] td[data-column="${key}"]`);
    const count = await cells.count();
    const out = [];
    for (let i = 0; i < count; i++) {
      const cell = cells.nth(i);
      out.push({ value: await cell.innerText(), best: (await cell.getAttribute('class'))?.includes('best') ?? false });
    }
    return out;
  }
}
