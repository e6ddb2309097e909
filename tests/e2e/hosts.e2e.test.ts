// Web mode end to end in real Chromium: add a host, reload, find it again; bad input is explained.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { expectCount } from '../support/browser.ts';
import { openWebApp, type OpenWebApp } from '../support/open-web-app.ts';
import type { RunningWebApp } from '../support/web-app.ts';
import { HostsPage } from './pages/hosts-page.ts';

let opened: OpenWebApp;
let app: RunningWebApp;
let browser: Browser;
let page: Page;

before(async () => {
  opened = await openWebApp({ timeoutMs: 10_000 });
  ({ app, browser, page } = opened);
});

after(async () => {
  await opened?.close();
});

test('the token link is swapped for a cookie and the status bar tells transport and data dir', async () => {
  assert.equal(new URL(page.url()).search, '', 'the token must not stay in the address bar');
  await assert.doesNotReject(page.getByTestId('status-connection').filter({ hasText: 'Connected' }).waitFor());
  // app.info answers after the socket connects: wait for the status bar to show it.
  await page.getByTestId('status-data-dir').filter({ hasText: app.dataDir }).waitFor();
  assert.match(await page.getByTestId('status-transport').innerText(), /web/);
  assert.match(await page.getByTestId('status-data-dir').innerText(), new RegExp(app.dataDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
});

test('each URL opens web mode once: another browser context needs a new one, and the first tab keeps working', async () => {
  const other = await browser.newContext();
  try {
    const replay = await other.newPage();
    const refused = await replay.goto(app.url);
    assert.equal(refused?.status(), 401);
    await replay.getByRole('heading', { name: 'This link was already used' }).waitFor();

    const fresh = await other.newPage();
    await fresh.goto(await app.newUrl());
    assert.equal(new URL(fresh.url()).search, '');
    await fresh.getByTestId('status-connection').filter({ hasText: 'Connected' }).waitFor();
  } finally {
    await other.close();
  }
  await page.reload();
  await page.getByTestId('status-connection').filter({ hasText: 'Connected' }).waitFor();
});

test('adds a host, reloads, and finds it again', async () => {
  const hosts = new HostsPage(page);
  await hosts.open();
  await hosts.add({ name: 'load-client', address: '10.231.0.2', port: '2222', user: 'bench', auth: 'key', keyPath: '/root/.ssh/id_ed25519' });

  await page.reload();
  await hosts.open();
  const row = hosts.row('load-client');
  await row.waitFor();
  const text = await row.innerText();
  assert.match(text, /10\.231\.0\.2:2222/);
  assert.match(text, /bench/);
  assert.match(text, /id_ed25519/);
  assert.equal(await hosts.rows().count(), 1);
});

test('a malformed address is explained field by field and nothing is saved', async () => {
  const hosts = new HostsPage(page);
  await hosts.open();
  await page.getByTestId('host-add').click();
  await hosts.fill({ name: 'broken', address: 'bad host\nname', port: '70000', user: 'root' });
  await page.getByTestId('host-save').click();
  assert.match(await hosts.fieldError('address').innerText(), /spaces or line breaks/);
  assert.match(await hosts.fieldError('port').innerText(), /between 1 and 65535/);
  await page.getByTestId('host-cancel').click();
  await page.reload();
  await hosts.open();
  // Once the list is back (its one host shown), the absence of "broken" says something.
  await expectCount(hosts.rows(), 1);
  assert.equal(await hosts.row('broken').count(), 0);
});

test('a duplicate name is refused by the back end with a clear message', async () => {
  const hosts = new HostsPage(page);
  await hosts.open();
  await page.getByTestId('host-add').click();
  await hosts.fill({ name: 'LOAD-CLIENT', address: 'bench.example.org', user: 'root' });
  await page.getByTestId('host-save').click();
  assert.match(await page.getByTestId('host-save-error').innerText(), /already exists/);
});

test('edits and removes a host with confirmation', async () => {
  const hosts = new HostsPage(page);
  await page.reload();
  await hosts.open();
  await hosts.row('load-client').getByTestId('host-edit').click();
  await page.getByTestId('host-name').fill('load-client-renamed');
  await page.getByTestId('host-save').click();
  await hosts.row('load-client-renamed').waitFor();

  await hosts.row('load-client-renamed').getByTestId('host-remove').click();
  await hosts.row('load-client-renamed').getByTestId('host-remove-confirm').click();
  await page.getByTestId('hosts-empty').waitFor();
  await page.reload();
  await page.getByTestId('hosts-empty').waitFor();
});

test('the Compare page without sessions says how to get some', async () => {
  await page.getByTestId('nav-compare').click();
  assert.match(await page.getByTestId('compare-empty').innerText(), /No sessions yet/);
});

test('across the suite the page reports no CSP violation', async () => {
  assert.deepEqual(await opened.cspViolations(), []);
});
