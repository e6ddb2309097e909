// Page objects of the Sessions library (with replay, its rows' headline figures and ⋯ menus) and
// the Compare page (its headline, and the PDF export that web mode hands to the browser as a
// download); both check their tables fit a 1280-pixel window.

import type { Download, Locator, Page } from 'playwright-core';
import { openWebApp, type OpenWebApp, type OpenWebAppOptions } from '../../support/open-web-app.ts';
import type { Db } from '../../../main/services/store/database.ts';
import { createSeeder, type Seeder } from '../../support/session-seed.ts';
import { ExportMenu } from './export-menu.ts';
import { NavPage } from './nav-page.ts';
import { tableLayoutProblems } from './table-layout.ts';

/** A session row's figures as shown: requests/s, p99, errors + not sent, and "best of N steps" for a sweep. */
export interface SessionFigures {
  rps: string;
  p99: string;
  errors: string;
  bestOf: string | null;
}

/** The actions in a session row's ⋯ menu, by test id. */
export type SessionMenuAction = 'session-details-toggle' | 'session-rename' | 'session-wizard' | 'session-duplicate' | 'session-delete';

export class SessionsLibrary extends NavPage {
  constructor(page: Page) {
    super(page, 'sessions');
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

  /**
   * Compares the sessions named (ticking each; unticking the rest of `among`, the names ticked
   * before) and waits for the comparison.
   */
  async compare(names: readonly string[], among: readonly string[] = names): Promise<void> {
    for (const name of among) await this.row(name).getByTestId('session-select').setChecked(names.includes(name));
    await this.compareTicked();
  }

  /** Compares the sessions ticked and waits for the comparison. */
  async compareTicked(): Promise<void> {
    await this.page.getByTestId('sessions-compare').click();
    await this.page.getByTestId('comparison').waitFor();
  }

  /** Opens the row's ⋯ menu (the row's lesser actions live there), unless it is open already. */
  async openMenu(name: string): Promise<Locator> {
    const menu = this.row(name).getByTestId('session-more-list');
    if (!(await menu.evaluate((list) => list.matches(':popover-open')))) await this.row(name).getByTestId('session-more').click();
    await menu.waitFor();
    return menu;
  }

  /** Picks one of the row's ⋯ menu actions. */
  async menuAction(name: string, action: SessionMenuAction): Promise<void> {
    const menu = await this.openMenu(name);
    await menu.getByTestId(action).click();
  }

  /** The row's Export menu, inside its ⋯ menu. */
  exportMenu(name: string): ExportMenu {
    return new ExportMenu(this.page, this.row(name), 'session-export', async () => {
      await this.openMenu(name);
    });
  }

  async template(name: string): Promise<string> {
    return (await this.row(name).getByTestId('session-templates').innerText()).trim();
  }

  /** The row's headline figures; null when the session has no result. */
  async figures(name: string): Promise<SessionFigures | null> {
    const row = this.row(name);
    if ((await row.getByTestId('session-headline-none').count()) > 0) return null;
    const text = async (testId: string) => (await row.getByTestId(testId).innerText()).trim();
    const bestOf = row.getByTestId('session-best-of');
    const best = (await bestOf.count()) > 0 ? (await bestOf.innerText()).trim() : null;
    const rps = (await row.getByTestId('session-rps').evaluate((cell) => cell.firstChild?.textContent ?? '')).trim();
    return { rps, p99: await text('session-p99'), errors: await text('session-errors'), bestOf: best };
  }

  /** What keeps the table from fitting the window, in words; empty when every column and action fits. */
  override async layoutProblems(): Promise<string[]> {
    const problems = await tableLayoutProblems(this.page.getByTestId('sessions-table'));
    // Every row's own buttons (Replay and ⋯) in view without scrolling sideways.
    const rows = this.page.getByTestId('session-row');
    for (let i = 0; i < (await rows.count()); i++) {
      const more = rows.nth(i).getByTestId('session-more');
      const box = await more.boundingBox();
      const width = this.page.viewportSize()?.width ?? 0;
      if (!box || box.x + box.width > width) problems.push(`row ${i + 1}: its ⋯ menu button is not in view`);
    }
    return problems;
  }
}

/**
 * An e2e suite's start on the Sessions library: the app opened on a store seeded with sessions
 * (tests/support/session-seed.ts; `db` for what else the suite stores, its profiles, say), the
 * library open. The caller closes `opened`.
 */
export async function openSeededLibrary(seed: (seeder: Seeder, db: Db) => void, options: Omit<OpenWebAppOptions, 'seed'> = {}): Promise<{ opened: OpenWebApp; page: Page; library: SessionsLibrary }> {
  const opened = await openWebApp({ ...options, seed: (db) => seed(createSeeder(db), db) });
  const library = new SessionsLibrary(opened.page);
  await library.open();
  return { opened, page: opened.page, library };
}

export class ComparePage extends NavPage {
  constructor(page: Page) {
    super(page, 'compare');
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

/** The seed's published table beside a comparison of one study's sessions. */
export class PublishedBySeed {
  readonly page: Page;
  constructor(page: Page) {
    this.page = page;
  }

  /** Each row's cells as shown: the seed's server, its step, its figures, and which sessions ran it here. */
  async rows(): Promise<Array<{ cells: string[]; ran: string }>> {
    const rows = this.page.getByTestId('compare-published-row');
    const out = [];
    for (let i = 0; i < (await rows.count()); i++) {
      const row = rows.nth(i);
      out.push({ cells: await row.locator('td').allInnerTexts(), ran: await row.getByTestId('compare-published-ran').innerText() });
    }
    return out;
  }

  async note(): Promise<string> {
    return this.page.getByTestId('compare-published-note').innerText();
  }
}

/** Compare's per-endpoint table: a row per endpoint, a cell per server. */
export class EndpointTable {
  readonly page: Page;
  constructor(page: Page) {
    this.page = page;
  }

  async servers(): Promise<string[]> {
    return this.page.getByTestId('compare-endpoint-server').allInnerTexts();
  }

  /** Each row's endpoint and, per server, its cell's requests/s, p99, memory and GC lines as shown. */
  async rows(): Promise<Array<{ endpoint: string; cells: Array<{ rps: string; p99: string; rss: string | null; gc: string | null; best: string[] }> }>> {
    const rows = this.page.getByTestId('compare-endpoint-row');
    const result = [];
    for (let r = 0; r < (await rows.count()); r++) {
      const row = rows.nth(r);
      const cells = row.getByTestId('compare-endpoint-cell');
      const parsed = [];
      for (let c = 0; c < (await cells.count()); c++) {
        const cell = cells.nth(c);
        const text = async (metric: string) => ((await cell.locator(`[data-metric="${metric}"]`).count()) > 0 ? await cell.locator(`[data-metric="${metric}"]`).innerText() : null);
        const best = await cell.locator('.best').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-metric') ?? ''));
        parsed.push({ rps: (await text('rps')) ?? '', p99: (await text('p99')) ?? '', rss: await text('rss'), gc: await text('gc'), best });
      }
      result.push({ endpoint: (await row.getAttribute('data-endpoint')) ?? '', cells: parsed });
    }
    return result;
  }
}
