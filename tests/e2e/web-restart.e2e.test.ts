// Web mode stopped and started again on the same data dir, with a tab left open in real Chromium:
// the new web mode takes the same port, the tab's own reconnect finds it and is still signed in,
// and the page works again without opening a new link.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { expectText } from '../support/browser.ts';
import { openWebApp, type OpenWebApp } from '../support/open-web-app.ts';
import { startWebApp, type RunningWebApp } from '../support/web-app.ts';
import { HostsPage } from './pages/hosts-page.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'benchlab-e2e-restart-'));
let opened: OpenWebApp;
let again: RunningWebApp | undefined;
let page: Page;

before(async () => {
  opened = await openWebApp({ dataDir });
  page = opened.page;
});

after(async () => {
  await opened?.close();
  await again?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

test('an open tab reconnects to web mode started again, signed in, and the page works', async () => {
  await opened.app.stop();
  await expectText(page.getByTestId('status-connection'), 'Reconnecting');
  again = await startWebApp({ dataDir });
  assert.equal(again.origin, opened.app.origin, 'the same port as before');
  // The renderer's own reconnect (backing off up to 5 s) gets through: no reload, no new link.
  await expectText(page.getByTestId('status-connection'), 'Connected', { timeout: 20_000 });
  const hosts = new HostsPage(page);
  await hosts.open();
  await page.getByTestId('host-add-local').click();
  await hosts.row('This machine').waitFor();
});

test('across the suite the page reports no CSP violation', async () => {
  assert.deepEqual(await opened.cspViolations(), []);
});
