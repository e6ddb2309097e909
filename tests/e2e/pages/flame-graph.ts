// Page object of a flame graph and its profile view (features/profiles): its frames, search, zoom,
// top frames table and exports, found under one test id prefix (e.g. "run-profile").

import type { Download, Locator, Page } from 'playwright-core';
import { readFile } from 'node:fs/promises';
import { expectAttribute } from '../../support/browser.ts';

export class ProfileViewPage {
  readonly page: Page;
  readonly testId: string;
  constructor(page: Page, testId: string) {
    this.page = page;
    this.testId = testId;
  }

  get root(): Locator {
    return this.page.getByTestId(this.testId);
  }

  get flame(): Locator {
    return this.page.getByTestId(`${this.testId}-flame`);
  }

  frame(name: string): Locator {
    return this.flame.locator(`[data-testid="${this.testId}-flame-frame"][data-name="${name}"]`);
  }

  async frameNames(): Promise<string[]> {
    return this.flame.getByTestId(`${this.testId}-flame-frame`).evaluateAll((list) => list.map((frame) => frame.getAttribute('data-name') ?? ''));
  }

  /** The frame's width as a share of the drawn width (0..1). */
  async width(name: string): Promise<number> {
    return Number(await this.frame(name).first().getAttribute('data-width'));
  }

  async litNames(): Promise<string[]> {
    return this.flame.locator('[data-lit="yes"]').evaluateAll((list) => [...new Set(list.map((frame) => frame.getAttribute('data-name') ?? ''))].sort());
  }

  async search(text: string): Promise<void> {
    await this.page.getByTestId(`${this.testId}-search`).fill(text);
  }

  async searchResult(): Promise<string> {
    return (await this.page.getByTestId(`${this.testId}-search-result`).innerText()).trim();
  }

  /** Clicks the frame and waits until the graph is zoomed on it. */
  async zoom(name: string): Promise<void> {
    const frame = this.frame(name).first();
    const path = (await frame.getAttribute('data-path')) ?? '';
    await frame.click();
    await expectAttribute(this.flame, 'data-zoom', path);
  }

  async zoomPath(): Promise<string> {
    return (await this.flame.getAttribute('data-zoom')) ?? '';
  }

  async resetZoom(): Promise<void> {
    await this.page.getByTestId(`${this.testId}-flame-reset`).click();
    await expectAttribute(this.flame, 'data-zoom', '');
  }

  /** The top frames table: name and self share as shown, most self time first. */
  async topFrames(): Promise<Array<{ name: string; self: string }>> {
    return this.page.getByTestId(`${this.testId}-top-row`).evaluateAll((rows) => rows.map((row) => ({ name: row.getAttribute('data-name') ?? '', self: (row.querySelectorAll('td')[1]?.textContent ?? '').trim() })));
  }

  /** Clicks an export button and returns the file the browser downloaded. */
  async exportAs(format: 'folded' | 'speedscope'): Promise<{ fileName: string; content: string }> {
    const [download] = await Promise.all([this.page.waitForEvent('download') as Promise<Download>, this.page.getByTestId(`${this.testId}-export-${format}`).click()]);
    return { fileName: download.suggestedFilename(), content: await readFile(await download.path(), 'utf8') };
  }
}
