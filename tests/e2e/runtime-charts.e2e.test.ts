// The runtime's own charts end to end in web mode and real Chromium, with "This machine" as client
// and server: a Node server started as the Node templates start (the event-loop monitor preloaded)
// and blocking its loop for each request gets the event-loop delay chart and, from V8's pauses as the
// monitor observes them, the GC charts a JVM gets, drawn live and again in replay; its context
// switches chart draws the monitor's own timer runs beside the waits.

import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { withRuntimeMonitors } from '../../app/runs/runtime-monitors.ts';
import { expectAttribute } from '../support/browser.ts';
import { openWebApp, type OpenWebApp } from '../support/open-web-app.ts';
import { HostsPage } from './pages/hosts-page.ts';
import { RunPage } from './pages/run-page.ts';

/** The event-loop chart's p99 colour, the GC chart's time paused and the monitor's timer runs on the switches chart (run-charts.ts). */
const P99_COLOR = '#c2362b';
const PAUSED_COLOR = '#c05621';
const MONITOR_COLOR = '#a0aec0';

/** Answers each request after a 20 ms busy wait on its loop: the monitor sees timers run late. */
const BLOCKING_SERVER = `
const server = require('node:http').createServer((request, response) => {
  const until = Date.now() + 20;
  while (Date.now() < until);
  response.end('blocked');
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
`;

let opened: OpenWebApp;
let page: Page;
let child: ChildProcess;
let dir: string;
let port: number;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'benchlab-e2e-runtime-'));
  const started = withRuntimeMonitors('{node}', [process.execPath, '-e', BLOCKING_SERVER], dir);
  for (const file of started.files) writeFileSync(join(dir, file.name), file.text);
  child = spawn(started.argv[0]!, started.argv.slice(1), { cwd: dir, stdio: ['ignore', 'pipe', 'ignore'] });
  port = await new Promise<number>((resolve, reject) => {
    child.stdout!.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().split('\n')[0])));
    child.once('exit', (code) => reject(new Error(`the server exited with ${code}`)));
  });
  opened = await openWebApp({ timeoutMs: 20_000 });
  page = opened.page;
  await new HostsPage(page).addLocal();
});

after(async () => {
  await opened?.close();
  child?.kill('SIGKILL');
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test("a Node server's event-loop delay and GC are charted live and in replay, with its monitor's timer runs beside its context switches", async () => {
  const run = new RunPage(page);
  await run.open();
  await run.fill({ client: 'This machine', server: 'This machine', target: `http://127.0.0.1:${port}`, model: 'closed', connections: '2', durationS: '4', warmupS: '0', sweep: '' });
  await run.start();
  // The chart appears once a reading has the figures, and draws them while the run goes on.
  await run.waitForChartPoints('server-event-loop', 2, 20_000);
  assert.equal(await run.waitForState(['completed', 'failed', 'cancelled']), 'completed');
  assert.ok((await run.chartInk('server-event-loop', P99_COLOR)) > 0, 'the p99 line is drawn');
  await run.waitForChartPoints('server-gc', 2, 20_000);
  assert.ok((await run.chartInk('server-gc', PAUSED_COLOR)) > 0, "the GC chart's time paused is drawn");
  assert.ok((await run.chartInk('server-switches', MONITOR_COLOR)) > 0, "the monitor's timer runs are drawn beside the switches");
  await page.getByTestId('chart-server-switches').screenshot({ path: join(tmpdir(), 'benchlab-runtime-switches-chart.png') });
  await page.getByTestId('chart-server-gc').screenshot({ path: join(tmpdir(), 'benchlab-runtime-gc-chart.png') });
  await page.getByTestId('chart-server-event-loop').screenshot({ path: join(tmpdir(), 'benchlab-runtime-event-loop-chart.png') });
  const sessionId = await run.sessionId();

  // Replay draws the same figures from the stored seconds.
  await page.getByTestId('nav-sessions').click();
  await page.locator(`[data-testid="session-row"][data-session="${sessionId}"]`).getByTestId('session-replay').click();
  const duration = await expectAttribute(page.getByTestId('replay'), 'data-duration', { atLeast: 1 });
  await page.getByTestId('replay-seek').fill(duration);
  await expectAttribute(page.getByTestId('chart-server-event-loop'), 'data-points', { atLeast: 2 });
  assert.ok((await run.chartInk('server-event-loop', P99_COLOR)) > 0, 'replay draws the p99 line');
  await expectAttribute(page.getByTestId('chart-server-gc'), 'data-points', { atLeast: 2 });
  assert.deepEqual(await opened.cspViolations(), []);
});
