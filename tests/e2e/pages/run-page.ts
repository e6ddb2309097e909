// Page object for the Run page: tests speak in user actions (fill the profile, start, stop) and read
// what the page shows (field errors, status, summary rows, chart progress); selectors live here.

import type { Locator, Page } from 'playwright-core';

export interface ProfileValues {
  client?: string;
  server?: string;
  target?: string;
  path?: string;
  model?: 'closed' | 'open';
  connections?: string;
  durationS?: string;
  rate?: string;
  openDurationS?: string;
  openConnections?: string;
  sweep?: string;
  warmupS?: string;
  pauseS?: string;
}

export class RunPage {
  readonly page: Page;
  constructor(page: Page) {
    this.page = page;
  }

  async open(): Promise<void> {
    await this.page.getByTestId('nav-run').click();
    await this.page.getByTestId('page-run').waitFor();
  }

  async fill(values: ProfileValues): Promise<void> {
    const page = this.page;
    if (values.client) await page.getByTestId('run-client').selectOption({ label: values.client });
    if (values.server) await page.getByTestId('run-server').selectOption({ label: values.server });
    if (values.model) await page.getByTestId('run-model').selectOption(values.model);
    for (const field of ['target', 'path', 'connections', 'durationS', 'rate', 'openDurationS', 'openConnections', 'sweep', 'warmupS', 'pauseS'] as const) {
      const value = values[field];
      if (value !== undefined) await page.getByTestId(`run-${field}`).fill(value);
    }
  }

  fieldError(field: string): Locator {
    return this.page.getByTestId(`error-${field}`);
  }

  async start(): Promise<void> {
    await this.page.getByTestId('run-start').click();
  }

  async stop(): Promise<void> {
    await this.page.getByTestId('run-stop').click();
  }

  error(): Locator {
    return this.page.getByTestId('run-error');
  }

  /** Waits until the run's status badge says one of `states`. */
  async waitForState(states: string[], timeout = 30_000): Promise<string> {
    const status = this.page.getByTestId('run-status');
    await status.waitFor({ timeout });
    const deadline = Date.now() + timeout;
    for (;;) {
      const state = (await status.getAttribute('data-status')) ?? '';
      if (states.includes(state)) return state;
      if (Date.now() > deadline) throw new Error(`run state stayed ${state}, expected ${states.join(' or ')}`);
      await this.page.waitForTimeout(100);
    }
  }

  /** The session the page shows. */
  async sessionId(): Promise<number> {
    return Number(await this.page.getByTestId('run-status').getAttribute('data-session'));
  }

  /** Waits until a chart has drawn at least `count` points of the session the page shows. */
  async waitForChartPoints(id: string, count: number, timeout = 15_000): Promise<void> {
    const chart = this.page.getByTestId(`chart-${id}`);
    const deadline = Date.now() + timeout;
    for (;;) {
      const session = await this.sessionId();
      const [drawnFor, points] = await Promise.all([chart.getAttribute('data-session'), chart.getAttribute('data-points')]);
      if (Number(drawnFor) === session && Number(points) >= count) return;
      if (Date.now() > deadline) throw new Error(`chart ${id} drew ${points} points of session ${drawnFor}, expected ${count} of ${session}`);
      await this.page.waitForTimeout(50);
    }
  }

  summaryRows(): Locator {
    return this.page.getByTestId('summary-row');
  }
}
