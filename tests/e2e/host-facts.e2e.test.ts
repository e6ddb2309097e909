// The noise pre-flight end to end in web mode and real Chromium, with "This machine" as both client
// and server: the Run page warns before a start that client and server are one machine, with the
// evidence, and the live session shows the findings stored with it at its start.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../../agent/agent-harness.ts';
import { openWebApp, type OpenWebApp } from '../support/open-web-app.ts';
import { HostsPage } from './pages/hosts-page.ts';
import { RunPage } from './pages/run-page.ts';

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

  await run.start();
  assert.equal(await run.waitForState(['completed', 'failed', 'cancelled']), 'completed');
  const stored = page.locator('[data-testid="run-session-noise"][data-state="findings"] [data-testid="noise-finding"][data-kind="same-machine"]');
  await stored.waitFor();
  assert.match(await stored.innerText(), /same machine/);
});

test('across the suite the page reports no CSP violation', async () => {
  assert.deepEqual(await opened.cspViolations(), []);
});
