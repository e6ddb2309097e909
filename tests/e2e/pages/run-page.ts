// Page object for the Run page: tests speak in user actions (fill the profile, start, stop) and read
// what the page shows (field errors, status, summary rows, chart progress); selectors live here.

import type { Locator, Page } from 'playwright-core';
import { after, before } from 'node:test';
import { startTestServer, type TestServer } from '../../../agent/agent-harness.ts';
import { expectAttribute } from '../../support/browser.ts';
import { openWebApp, type OpenWebApp, type OpenWebAppOptions } from '../../support/open-web-app.ts';
import { HostsPage } from './hosts-page.ts';
import { NavPage } from './nav-page.ts';
import { tableLayoutProblems } from './table-layout.ts';

export interface ProfileValues {
  name?: string;
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
  /** The closed model's think time: none, fixed (thinkMs) or uniform (thinkMinMs, thinkMaxMs, thinkRoundToMs). */
  thinkKind?: 'none' | 'fixed' | 'uniform';
  thinkMs?: string;
  thinkMinMs?: string;
  thinkMaxMs?: string;
  thinkRoundToMs?: string;
  /** The closed model's choice at the request timeout: close the connection, or wait for the answer (wrk). */
  onTimeout?: 'close' | 'wait';
}

export class RunPage extends NavPage {
  constructor(page: Page) {
    super(page, 'run');
  }

  async fill(values: ProfileValues): Promise<void> {
    const page = this.page;
    if (values.client) await page.getByTestId('run-client').selectOption({ label: values.client });
    if (values.server) await page.getByTestId('run-server').selectOption({ label: values.server });
    if (values.model) await page.getByTestId('run-model').selectOption(values.model);
    if (values.thinkKind) await page.getByTestId('run-thinkKind').selectOption(values.thinkKind);
    if (values.onTimeout) await page.getByTestId('run-onTimeout').selectOption(values.onTimeout);
    for (const field of ['name', 'target', 'path', 'connections', 'durationS', 'rate', 'openDurationS', 'openConnections', 'sweep', 'warmupS', 'pauseS', 'thinkMs', 'thinkMinMs', 'thinkMaxMs', 'thinkRoundToMs'] as const) {
      const value = values[field];
      if (value !== undefined) await page.getByTestId(`run-${field}`).fill(value);
    }
  }

  field(name: string): Locator {
    return this.page.getByTestId(`run-${name}`);
  }

  /** The name a session takes while none is typed. */
  async proposedName(): Promise<string | null> {
    return this.field('name').getAttribute('placeholder');
  }

  /** The option the Deployed template field shows chosen. */
  async deploymentShown(): Promise<string> {
    return (await this.field('deployment').locator('option:checked').innerText()).trim();
  }

  /** Waits until the back end holds the form's latest change (it is saved a moment after each). */
  async waitForSaved(): Promise<void> {
    await expectAttribute(this.page.getByTestId('run-form'), 'data-draft', 'saved');
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

  /** Waits until the run's status badge says one of `states`; returns the one it says. */
  waitForState(states: string[], timeout = 30_000): Promise<string> {
    return expectAttribute(this.page.getByTestId('run-status'), 'data-status', states, { timeout });
  }

  /** The name of the session the page shows. */
  sessionName(): Promise<string> {
    return this.page.getByTestId('run-status').locator('strong').innerText();
  }

  /** The session the page shows. */
  async sessionId(): Promise<number> {
    return Number(await this.page.getByTestId('run-status').getAttribute('data-session'));
  }

  /** Waits until a chart has drawn at least `count` points of the session the page shows. */
  async waitForChartPoints(id: string, count: number, timeout = 15_000): Promise<void> {
    const chart = this.page.getByTestId(`chart-${id}`);
    await expectAttribute(chart, 'data-session', String(await this.sessionId()), { timeout });
    await expectAttribute(chart, 'data-points', { atLeast: count }, { timeout });
  }

  summaryRows(): Locator {
    return this.page.getByTestId('summary-row');
  }

  /** The boxes about the hosts' noise the page shows (the pre-flight alone, or the session's one box). */
  hostBoxes(): Locator {
    return this.page.locator('[data-testid="run-preflight"], [data-testid="run-session-noise"]');
  }

  /** Each reading a finding of `kind` shows in the hosts box: [when, "read HH:MM:SS, …: evidence"]. */
  async findingReads(kind: string): Promise<Array<[string, string]>> {
    const reads = this.hostBoxes().locator(`[data-testid="noise-finding"][data-kind="${kind}"] [data-testid="finding-read"]`);
    const found: Array<[string, string]> = [];
    for (const read of await reads.all()) found.push([(await read.getAttribute('data-when')) ?? '', (await read.innerText()).trim()]);
    return found;
  }

  /** How the summary table fails to fit the window (table-layout.ts's checks); empty when it fits. */
  override layoutProblems(): Promise<string[]> {
    return tableLayoutProblems(this.page.getByTestId('run-summary'));
  }

  /** What a chart holds: its highest value, its breaks at pauses, its values drawn as lone dots. */
  async chartDrawn(id: string): Promise<{ top: number | null; breaks: number; alone: number }> {
    const chart = this.page.getByTestId(`chart-${id}`);
    const top = await chart.getAttribute('data-top');
    return { top: top ? Number(top) : null, breaks: Number(await chart.getAttribute('data-breaks')), alone: Number(await chart.getAttribute('data-alone')) };
  }

  /** How many pixels of a chart's canvas are painted in `hex` (a series' colour): 0 when it draws nothing. */
  chartInk(id: string, hex: string): Promise<number> {
    return this.page
      .getByTestId(`chart-${id}`)
      .locator('canvas')
      .evaluate((canvas, color) => {
        const element = canvas as unknown as { width: number; height: number; getContext(kind: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } } };
        const [r, g, b] = [1, 3, 5].map((at) => parseInt(color.slice(at, at + 2), 16));
        const { data } = element.getContext('2d').getImageData(0, 0, element.width, element.height);
        let count = 0;
        for (let i = 0; i < data.length; i += 4) if (Math.abs(data[i]! - r!) < 40 && Math.abs(data[i + 1]! - g!) < 40 && Math.abs(data[i + 2]! - b!) < 40 && data[i + 3]! > 100) count++;
        return count;
      }, hex);
  }
}

/**
 * An e2e suite's start on the Run page with "This machine" as a host and a local test server
 * (agent/agent-harness.ts) to load: opened before the file's tests, both closed after them. Call it at
 * the file's top level and read its fields inside the tests.
 */
export function runPageOnThisMachine(options: OpenWebAppOptions = {}): { readonly opened: OpenWebApp; readonly page: Page; readonly server: TestServer; readonly run: RunPage } {
  let started: { opened: OpenWebApp; server: TestServer; run: RunPage } | undefined;
  let server: TestServer | undefined;
  let opened: OpenWebApp | undefined;
  before(async () => {
    server = await startTestServer();
    opened = await openWebApp(options);
    await new HostsPage(opened.page).addLocal();
    const run = new RunPage(opened.page);
    await run.open();
    started = { opened, server, run };
  });
  after(async () => {
    await opened?.close();
    await server?.close();
  });
  const ready = () => {
    if (!started) throw new Error('the Run page is read before it was opened');
    return started;
  };
  return {
    get opened() {
      return ready().opened;
    },
    get page() {
      return ready().opened.page;
    },
    get server() {
      return ready().server;
    },
    get run() {
      return ready().run;
    },
  };
}
