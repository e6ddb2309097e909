// The noise pre-flight end to end in web mode and real Chromium, with "This machine" as both client
// and server: the Run page warns before a start that client and server are one machine, with the
// evidence and when it was read; once a session is shown, one box holds its start's reading and the
// pre-flight for the next run, each figure labelled with when it was read; the summary table has
// the server's memory, the step's runtime line is beneath it, and both fit 1280 px.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../../agent/agent-harness.ts';
import { openWebApp, type OpenWebApp } from '../support/open-web-app.ts';
import { HostsPage } from './pages/hosts-page.ts';
import { RunPage } from './pages/run-page.ts';
import { NARROW_WINDOW } from './pages/table-layout.ts';

let opened: OpenWebApp;
let page: Page;
let server: TestServer;

before(async () => {
  server = await startTestServer();
  opened = await openWebApp({ timeoutMs: 20_000 });
  page = opened.page;
  await new HostsPage(page).addLocal();
});

after(async () => {
  await opened?.close();
  await server?.close();
});

test('the Run page warns before a start that client and server are one machine, and the session keeps it', async () => {
  const run = new RunPage(page);
  await run.open();
  await run.fill({ client: 'This machine', server: 'This machine', target: `http://127.0.0.1:${server.port}`, connections: '2', durationS: '1', warmupS: '0' });

  const preflight = page.locator('[data-testid="run-preflight"][data-state="findings"]');
  const same = preflight.locator('[data-testid="noise-finding"][data-kind="same-machine"]');
  await same.waitFor();
  assert.equal(await same.getAttribute('data-host'), 'both');
  assert.match(await same.innerText(), /same machine/);
  assert.match(await same.innerText(), /boot id [0-9a-f-]{36}/);

  assert.match((await run.findingReads('same-machine'))[0]?.join(' ') ?? '', /^next read \d\d:\d\d:\d\d, before the next run: both report boot id/, 'said when it was read');

  await run.start();
  assert.equal(await run.waitForState(['completed', 'failed', 'cancelled']), 'completed');
  const stored = page.locator('[data-testid="run-session-noise"][data-state="findings"] [data-testid="noise-finding"][data-kind="same-machine"]');
  await stored.waitFor();
  assert.match(await stored.innerText(), /same machine/);
  // One box: the session's start reading and the pre-flight for the next run, each figure saying when it was read.
  await page.locator('[data-testid="run-session-noise"] [data-testid="noise-reading"][data-when="next"]').waitFor();
  assert.equal(await run.hostBoxes().count(), 1, 'one hosts box, not a pre-flight box beside the session’s');
  const reads = await run.findingReads('same-machine');
  assert.deepEqual(reads.map(([when]) => when), ['next', 'start'], 'one finding, both readings');
  assert.match(reads[0]![1], /^read \d\d:\d\d:\d\d, before the next run: both report boot id [0-9a-f-]{36}/);
  assert.match(reads[1]![1], /^read \d\d:\d\d:\d\d, at this session's start: both report boot id [0-9a-f-]{36}/);

  // The server (this machine) was sampled: its memory is in the summary, every column fitting 1280 px.
  assert.match(await page.getByTestId('summary-memory').innerText(), /^[\d.]+ (kB|MB|GB)$/);
  assert.match((await page.getByTestId('summary-memory').getAttribute('title')) ?? '', /lowest, .* highest, .* at the end$/);
  // And why it ran so, under the table: the step's runtime line, as Compare shows it.
  assert.match(await page.getByTestId('run-runtime').innerText(), /^Server, .+: threads up to \d+ · .*\(medians per second over \d+ s\)$/);
  await page.setViewportSize(NARROW_WINDOW);
  assert.deepEqual(await run.layoutProblems(), []);
});

test('across the suite the page reports no CSP violation', async () => {
  assert.deepEqual(await opened.cspViolations(), []);
});
