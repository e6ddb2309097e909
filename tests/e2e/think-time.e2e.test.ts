// The think time on the Run page, in web mode and real Chromium, with "This machine" as the client
// and a local HTTP server as the target: the closed model's field with its units, a bad bound
// refused beside its field, the proposed name saying the pause, and a short run whose rate stays
// within what its connections' pauses allow (at most one request per pause per connection).

import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../../agent/agent-harness.ts';
import { openWebApp, type OpenWebApp } from '../support/open-web-app.ts';
import { HostsPage } from './pages/hosts-page.ts';
import { RunPage } from './pages/run-page.ts';

let opened: OpenWebApp;
let page: Page;
let server: TestServer;
let run: RunPage;

before(async () => {
  server = await startTestServer();
  opened = await openWebApp();
  page = opened.page;
  await new HostsPage(page).addLocal();
  run = new RunPage(page);
  await run.open();
});

after(async () => {
  await opened?.close();
  await server?.close();
});

test('a think time is set in ms, checked beside its field, named in the proposal, and bounds the rate', async () => {
  const connections = 2;
  const pauseMs = 200;
  await run.fill({ client: 'This machine', target: `http://127.0.0.1:${server.port}`, connections: String(connections), durationS: '2', thinkKind: 'uniform', thinkMinMs: '500', thinkMaxMs: '100' });
  assert.equal(await run.fieldError('thinkMaxMs').innerText(), 'must be greater than the shortest pause');
  await run.fill({ thinkKind: 'fixed', thinkMs: String(pauseMs) });
  await page.screenshot({ path: join(tmpdir(), 'benchlab-think-time.png') });
  assert.equal(await run.proposedName(), `http://127.0.0.1:${server.port}/hello — c=${connections}, 2 s, think ${pauseMs} ms`);
  await run.start();
  assert.equal(await run.waitForState(['completed', 'failed', 'cancelled']), 'completed');
  const rps = Number((await page.getByTestId('summary-rps').innerText()).replace(/,/g, ''));
  // A connection sends at most one request per pause (and one more at the window's edge).
  assert.ok(rps > 0 && rps <= connections * (1000 / pauseMs) + connections, `${rps} requests/s`);
  assert.deepEqual(await opened.cspViolations(), []);
});
