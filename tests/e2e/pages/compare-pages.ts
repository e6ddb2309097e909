// Page objects of the Sessions library (with replay) and the Compare page (its headline, and the
// PDF export that web mode hands to the browser as a download).

import type { Download, Locator, Page } from 'playwright-core';

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

export interface HeadlineRow {
  letter: string;
  configuration: string;
  /** Cell text by metric: rps, p50, p99, max, errors. */
  values: Record<string, string>;
  best: string[];
}

export class CompareHeadline {
  readonly page: Page;
  constructor(page: Page) {
    this.page = page;
  }

  /** The configuration lines: letter → the row's cells as shown. */
  async configurations(): Promise<Array<{ letter: string; cells: string[] }>> {
    const rows = this.page.getByTestId('compare-configuration');
    return rows.evaluateAll((list) => list.map((row) => ({ letter: row.getAttribute('data-letter') ?? '', cells: [...row.querySelectorAll('td')].map((cell) => (cell.textContent ?? '').trim()) })));
  }

  /** The headline rows of one step (the only block when the comparison has one step). */
  async rows(step?: string): Promise<HeadlineRow[]> {
    const block = step ? this.page.locator(`[data-testid="compare-headline-step"][data-step="${step}"]`) : this.page.getByTestId('compare-headline-step').first();
    return block.getByTestId('compare-headline-row').evaluateAll((list) =>
      list.map((row) => {
        const cells = [...row.querySelectorAll('td[data-metric]')];
        return {
          letter: row.getAttribute('data-letter') ?? '',
          configuration: (row.querySelectorAll('td')[1]?.textContent ?? '').trim(),
          values: Object.fromEntries(cells.map((cell) => [cell.getAttribute('data-metric')!, (cell.textContent ?? '').trim()])),
          best: cells.filter((cell) => cell.classList.contains('best')).map((cell) => cell.getAttribute('data-metric')!),
        };
      }),
    );
  }

  async verdicts(step?: string): Promise<string[]> {
    const block = step ? this.page.locator(`[data-testid="compare-headline-step"][data-step="${step}"]`) : this.page.getByTestId('compare-headline-step').first();
    return block.getByTestId('compare-verdict').allInnerTexts();
  }
}

/** Export PDF on the Compare page: the browser's download, and the copy kept in the data dir. */
export async function exportPdf(page: Page): Promise<{ downloaded: string; fileName: string; kept: string }> {
  const [download]: [Download, void] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), page.getByTestId('compare-export').click()]);
  const kept = await page.getByTestId('compare-pdf-file').innerText({ timeout: 30_000 });
  return { downloaded: await download.path(), fileName: download.suggestedFilename(), kept };
}
