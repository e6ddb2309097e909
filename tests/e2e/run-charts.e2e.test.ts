// The Run page's charts agree with its table, end to end in web mode and real Chromium with "This
// machine" as the client and local HTTP servers as targets: a run of one or two seconds is drawn;
// answers that came after the window (the drain) are drawn, up to the table's max, live and in
// replay; a sweep's lines break at the pauses between steps; the summary table fits a 1280 px window
// with every column.

import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { test } from 'node:test';
import { listenOnLoopback } from '../../agent/agent-harness.ts';
import { expectAttribute } from '../support/browser.ts';
import { runPageOnThisMachine } from './pages/run-page.ts';
import { NARROW_WINDOW } from './pages/table-layout.ts';

/** The requests/s series' colour (run-charts.ts). */
const RPS_COLOR = '#2f6fed';

const local = runPageOnThisMachine({ viewport: NARROW_WINDOW });

/** A server whose every answer waits longer than the one before: the last ones come after the window. */
async function slowingServer(): Promise<{ port: number; close: () => Promise<void> }> {
  let count = 0;
  const http: Server = createServer((_request, response) => {
    const delayMs = 40 + 120 * count++;
    setTimeout(() => response.end('late'), delayMs);
  });
  return listenOnLoopback(http);
}

const msOf = (text: string) => Number(text.replace(/,/g, ''));

/** Starts the run the form describes and waits for it (not the session shown before) to end. */
async function runToEnd(timeout = 30_000): Promise<string> {
  const status = local.page.getByTestId('run-status');
  const before = (await status.count()) > 0 ? await status.getAttribute('data-session') : null;
  await local.run.start();
  await local.page.locator(`[data-testid="run-status"]:not([data-session="${before ?? ''}"])`).waitFor({ timeout });
  return local.run.waitForState(['completed', 'failed', 'cancelled'], timeout);
}

for (const seconds of ['1', '2']) {
  test(`a ${seconds}-second run is drawn on the charts`, async () => {
    await local.run.fill({ client: 'This machine', target: `http://127.0.0.1:${local.server.port}`, model: 'closed', connections: '2', durationS: seconds, warmupS: '0', sweep: '' });
    assert.equal(await runToEnd(), 'completed');
    await local.run.waitForChartPoints('rps', Number(seconds));
    assert.ok((await local.run.chartInk('rps', RPS_COLOR)) > 0, 'the requests/s chart shows the run');
  });
}

test('answers that came after the window are drawn up to the table’s max, live and in replay', async () => {
  const slow = await slowingServer();
  try {
    await local.run.fill({ client: 'This machine', target: `http://127.0.0.1:${slow.port}`, model: 'closed', connections: '2', durationS: '2', warmupS: '0', sweep: '' });
    assert.equal(await runToEnd(), 'completed');
    const maxMs = msOf(await local.page.getByTestId('summary-max').innerText());
    const sessionId = await local.run.sessionId();
    await expectAttribute(local.page.getByTestId('chart-latency'), 'data-top', { atLeast: maxMs * 0.99 });
    // Replay draws what was drawn live.
    await local.page.getByTestId('nav-sessions').click();
    await local.page.locator(`[data-testid="session-row"][data-session="${sessionId}"]`).getByTestId('session-replay').click();
    const replay = local.page.getByTestId('replay');
    const duration = await expectAttribute(replay, 'data-duration', { atLeast: 1 });
    await local.page.getByTestId('replay-seek').fill(duration);
    await expectAttribute(local.page.getByTestId('chart-latency'), 'data-top', { atLeast: maxMs * 0.99 });
    await local.run.open();
  } finally {
    await slow.close();
  }
});

test('a sweep’s lines break at the pauses between its steps; the summary table fits 1280 px', async () => {
  await local.run.fill({ client: 'This machine', target: `http://127.0.0.1:${local.server.port}`, model: 'closed', connections: '1', durationS: '2', warmupS: '0', sweep: '1, 2, 3, 4', pauseS: '2' });
  assert.equal(await runToEnd(60_000), 'completed');
  await local.run.waitForChartPoints('rps', 8);
  assert.equal((await local.run.chartDrawn('cpu')).breaks, 3, 'one break between each two of the 4 steps');
  assert.deepEqual(await local.run.layoutProblems(), []);
  assert.deepEqual(await local.opened.cspViolations(), []);
});
