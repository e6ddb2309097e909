// The Run page's charts agree with its table, end to end in web mode and real Chromium with "This
// machine" as the client and local HTTP servers as targets: a run of one or two seconds is drawn;
// answers that came after the window (the drain) are drawn, up to the table's max, live and in
// replay; a sweep's lines break at the pauses between steps; the summary table fits a 1280 px window
// with every column.

import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../../agent/agent-harness.ts';
import { expectAttribute } from '../support/browser.ts';
import { openWebApp, type OpenWebApp } from '../support/open-web-app.ts';
import { HostsPage } from './pages/hosts-page.ts';
import { RunPage } from './pages/run-page.ts';
import { NARROW_WINDOW } from './pages/table-layout.ts';

/** The requests/s series' colour (run-charts.ts). */
const RPS_COLOR = '#2f6fed';

let opened: OpenWebApp;
let page: Page;
let server: TestServer;
let run: RunPage;

before(async () => {
  server = await startTestServer();
  opened = await openWebApp({ viewport: NARROW_WINDOW });
  page = opened.page;
  await new HostsPage(page).addLocal();
  run = new RunPage(page);
  await run.open();
});

after(async () => {
  await opened?.close();
  await server?.close();
});

/** A server whose every answer waits longer than the one before: the last ones come after the window. */
async function slowingServer(): Promise<{ port: number; close: () => Promise<void> }> {
  let count = 0;
  const http: Server = createServer((_request, response) => {
    const delayMs = 40 + 120 * count++;
    setTimeout(() => response.end('late'), delayMs);
  });
  await new Promise<void>((done) => http.listen(0, '127.0.0.1', done));
  return {
    port: (http.address() as AddressInfo).port,
    close: () =>
      new Promise((done) => {
        http.closeAllConnections();
        http.close(() => done());
      }),
  };
}

const msOf = (text: string) => Number(text.replace(/,/g, ''));

/** Starts the run the form describes and waits for it (not the session shown before) to end. */
async function runToEnd(timeout = 30_000): Promise<string> {
  const status = page.getByTestId('run-status');
  const before = (await status.count()) > 0 ? await status.getAttribute('data-session') : null;
  await run.start();
  await page.locator(`[data-testid="run-status"]:not([data-session="${before ?? ''}"])`).waitFor({ timeout });
  return run.waitForState(['completed', 'failed', 'cancelled'], timeout);
}

for (const seconds of ['1', '2']) {
  test(`a ${seconds}-second run is drawn on the charts`, async () => {
    await run.fill({ client: 'This machine', target: `http://127.0.0.1:${server.port}`, model: 'closed', connections: '2', durationS: seconds, warmupS: '0', sweep: '' });
    assert.equal(await runToEnd(), 'completed');
    await run.waitForChartPoints('rps', Number(seconds));
    assert.ok((await run.chartInk('rps', RPS_COLOR)) > 0, 'the requests/s chart shows the run');
  });
}

test('answers that came after the window are drawn up to the table’s max, live and in replay', async () => {
  const slow = await slowingServer();
  try {
    await run.fill({ client: 'This machine', target: `http://127.0.0.1:${slow.port}`, model: 'closed', connections: '2', durationS: '2', warmupS: '0', sweep: '' });
    assert.equal(await runToEnd(), 'completed');
    const maxMs = msOf(await page.getByTestId('summary-max').innerText());
    const sessionId = await run.sessionId();
    await expectAttribute(page.getByTestId('chart-latency'), 'data-top', { atLeast: maxMs * 0.99 });
    // Replay draws what was drawn live.
    await page.getByTestId('nav-sessions').click();
    await page.locator(`[data-testid="session-row"][data-session="${sessionId}"]`).getByTestId('session-replay').click();
    const replay = page.getByTestId('replay');
    const duration = await expectAttribute(replay, 'data-duration', { atLeast: 1 });
    await page.getByTestId('replay-seek').fill(duration);
    await expectAttribute(page.getByTestId('chart-latency'), 'data-top', { atLeast: maxMs * 0.99 });
    await run.open();
  } finally {
    await slow.close();
  }
});

test('a sweep’s lines break at the pauses between its steps; the summary table fits 1280 px', async () => {
  await run.fill({ client: 'This machine', target: `http://127.0.0.1:${server.port}`, model: 'closed', connections: '1', durationS: '2', warmupS: '0', sweep: '1, 2, 3, 4', pauseS: '2' });
  assert.equal(await runToEnd(60_000), 'completed');
  await run.waitForChartPoints('rps', 8);
  assert.equal((await run.chartDrawn('cpu')).breaks, 3, 'one break between each two of the 4 steps');
  assert.deepEqual(await run.layoutProblems(), []);
  assert.deepEqual(await opened.cspViolations(), []);
});
