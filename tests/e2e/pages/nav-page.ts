// What every page object of a page in the navigation shares: the Playwright page, opening the page
// by its navigation entry (`nav-<id>`) until the page itself (`page-<id>`) is there, and the check
// that its tables fit the window. Each page object names its page and adds its own actions.

import type { Locator, Page } from 'playwright-core';
import { tableLayoutProblems } from './table-layout.ts';

export class NavPage {
  readonly page: Page;
  readonly #id: string;
  constructor(page: Page, id: string) {
    this.page = page;
    this.#id = id;
  }

  /** The page's own element (`page-<id>`). */
  root(): Locator {
    return this.page.getByTestId(`page-${this.#id}`);
  }

  async open(): Promise<void> {
    await this.page.getByTestId(`nav-${this.#id}`).click();
    await this.root().waitFor();
  }

  /** What keeps the page's tables from fitting the window, in words; empty when they fit. */
  layoutProblems(): Promise<string[]> {
    return tableLayoutProblems(this.root().locator('table'));
  }
}
