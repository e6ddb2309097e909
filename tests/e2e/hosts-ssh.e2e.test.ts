// The Hosts page against the lab's real sshd, in web mode and real Chromium: first-use key
// acceptance, system info, client→server reachability, and an unreachable host explained.

import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { labSkipReason, labTargets } from '../support/lab-hosts.ts';
import { openWebApp, type OpenWebApp } from '../support/open-web-app.ts';
import { HostsPage } from './pages/hosts-page.ts';
import { TerminalPage } from './pages/terminal-page.ts';

const skip = labSkipReason();

describe('Hosts page with the lab', { skip: skip ?? false }, () => {
  let opened: OpenWebApp;
  let page: Page;
  let targets: Awaited<ReturnType<typeof labTargets>>;

  before(async () => {
    targets = await labTargets();
    opened = await openWebApp();
    page = opened.page;
  });

  after(async () => {
    await opened?.close();
  });

  test('first connection of a root host with a key connects at once (nothing to type) up to the fingerprint; trusting it pins the key and connects', async () => {
    const hosts = new HostsPage(page);
    await hosts.open();
    await hosts.add({ name: 'lab-server', address: targets.server.address, user: 'root', auth: 'key', keyPath: targets.keyPath });
    const dialog = await hosts.startConnect('lab-server');
    // No empty form with a lone Connect button: the dialog goes straight on.
    await dialog.getByTestId('unknown-key').waitFor();
    assert.equal(await dialog.getByTestId('connect-submit').count(), 0);
    const shown = await dialog.getByTestId('presented-fingerprint').innerText();
    assert.equal(shown.trim(), targets.server.pinnedFingerprint);
    await dialog.getByTestId('trust-key').click();
    await hosts.waitForState('lab-server', 'connected');
    // The row is read again once the dialog closes: wait for the pinned key to show there.
    const pinned = hosts.row('lab-server').locator(`td[title="${targets.server.pinnedFingerprint}"]`);
    await pinned.waitFor();
    assert.equal(await pinned.count(), 1, 'the pinned fingerprint is shown in the row');
  });

  test('system info of the connected host is captured and shown', async () => {
    const hosts = new HostsPage(page);
    await hosts.expand('lab-server');
    await page.getByTestId('system-info-refresh').click();
    await page.getByTestId('info-hostname').filter({ hasText: 'bl-server' }).waitFor();
    assert.match(await page.getByTestId('system-info').innerText(), /net\.ipv4\.ip_local_port_range/);
  });

  test('the client reaches the server, with a round-trip time', async () => {
    const hosts = new HostsPage(page);
    await hosts.addLabHost('lab-client', targets.client, targets.keyPath);
    await page.getByRole('combobox', { name: 'from' }).selectOption({ label: 'lab-client' });
    await page.getByRole('combobox', { name: 'to' }).selectOption({ label: 'lab-server' });
    await page.getByTestId('reachability-check').click();
    const result = page.getByTestId('reachability-result');
    await result.waitFor();
    assert.match(await result.innerText(), /reachable, RTT \d+\.\d+ ms/);
  });

  test('a terminal on the SSH host echoes what is typed', async () => {
    const terminals = new TerminalPage(page);
    await terminals.open();
    const panel = await terminals.openTerminal('lab-server');
    await terminals.type(panel, 'echo "$(hostname)-$((40+2))"');
    await terminals.press(panel, 'Enter');
    // The typed line reads "$(hostname)-$((40+2))": only the shell's answer is bl-server-42, on a row of its own.
    await terminals.waitForRows(panel, /^bl-server-42\s*$/);
    await page.getByTestId('nav-hosts').click();
  });

  test('an unreachable host is explained within 10 s and the page stays usable', async () => {
    const hosts = new HostsPage(page);
    await hosts.add({ name: 'ghost', address: '10.231.0.99', user: 'root', auth: 'key', keyPath: targets.keyPath });
    const dialog = await hosts.startConnect('ghost');
    const error = dialog.getByTestId('connect-error');
    // The bound of the wait is the promise of the test's name.
    await error.waitFor({ timeout: 10000 });
    assert.match(await error.innerText(), /ghost \(10\.231\.0\.99:22\)/);
    await dialog.getByTestId('connect-close').click();
    await hosts.waitForState('ghost', 'failed');
    assert.equal(await hosts.rows().count(), 3);
  });

  test('a key host of a user other than root says how it signs in and the one thing it may ask for, never an empty form', async () => {
    const hosts = new HostsPage(page);
    await hosts.add({ name: 'lab-sudo', address: targets.server.address, user: 'benchlab', auth: 'key', keyPath: targets.keyPath });
    const dialog = await hosts.startConnect('lab-sudo');
    await dialog.getByTestId('connect-how').waitFor();
    const box = await dialog.boundingBox();
    await page.screenshot({ path: join(tmpdir(), 'benchlab-connect-key-host.png'), ...(box ? { clip: box } : {}) });
    assert.equal(
      (await dialog.getByTestId('connect-how').innerText()).trim(),
      `Signs in as benchlab@${targets.server.address} with the key ${targets.keyPath}: nothing to type. The sudo password is asked only for presets, which change system settings as root.`,
    );
    assert.equal(await dialog.getByTestId('connect-sudo').count(), 1, 'the one thing it may ask for');
    await dialog.getByTestId('connect-close').or(dialog.getByRole('button', { name: 'Cancel' })).first().click();
  });

  test('across the suite the page reports no CSP violation', async () => {
    assert.deepEqual(await opened.cspViolations(), []);
  });
});
