// The Presets page in web mode against a lab host, in real Chromium: duplicate a preset and edit it
// with validation as you type, plan on the host (current → new), apply after confirmation, read the
// verification (a new login for limits), see the pending revert, and revert to the original state.

import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { labExec, labLayout } from '../lab/lab.ts';
import { labSkipReason, labTargets } from '../support/lab-hosts.ts';
import { openWebApp, type OpenWebApp } from '../support/open-web-app.ts';
import { HostsPage } from './pages/hosts-page.ts';
import { PresetsPage } from './pages/presets-page.ts';

const skip = labSkipReason();
const client = labLayout('default').hosts.client;
const KEYS = ['net.ipv4.ip_local_port_range', 'net.ipv4.tcp_tw_reuse', 'net.ipv4.tcp_fin_timeout'];

async function liveValues(): Promise<Record<string, string>> {
  const values: Record<string, string> = {};
  for (const key of KEYS) {
    const result = await labExec('client', ['cat', `/proc/sys/${key.replace(/\./g, '/')}`]);
    values[key] = result.stdout.trim().replace(/\s+/g, ' ');
  }
  return values;
}

describe('Presets page with the lab', { skip: skip ?? false }, () => {
  let opened: OpenWebApp;
  let page: Page;
  let original: Record<string, string>;

  before(async () => {
    const targets = await labTargets();
    original = await liveValues();
    opened = await openWebApp();
    page = opened.page;
    await new HostsPage(page).addLabHost('lab-client', targets.client, targets.keyPath);
  });

  after(async () => {
    await opened?.close();
    // Whatever happened above, leave the shared lab host as it was.
    const now = await liveValues().catch(() => original);
    for (const key of KEYS) {
      if (original && now[key] !== original[key]) await labExec('client', ['sysctl', '-w', `${key}=${original[key]}`]);
    }
    rmSync(join(client.privateCopies['/etc/security/limits.d'], '90-benchlab.conf'), { force: true });
    rmSync(join(client.privateCopies['/etc/sysctl.d'], '90-benchlab.conf'), { force: true });
    rmSync(join(client.privateCopies['/var/lib/benchlab'], 'presets-restore.json'), { force: true });
  });

  test('a duplicated preset is validated as it is typed, then saved', async () => {
    const presets = new PresetsPage(page);
    await presets.open();
    await presets.select('Load client');
    await presets.duplicate();
    await presets.field('preset-name').fill('E2E client');
    // The load client preset's limits: "*" then "root", both soft+hard nofile.
    await presets.field('limit-value-1').fill('16k');
    assert.equal(await presets.fieldError('limits.1.value').innerText(), 'must be a number or "unlimited"');
    await presets.field('limit-value-1').fill('16000');
    await presets.fieldError('limits.1.value').waitFor({ state: 'detached' });
    await presets.field('limit-value-0').fill('16000');
    await presets.field('sysctl-value-2').fill('15;reboot');
    assert.equal(await presets.fieldError('sysctls.2.value').innerText(), 'must not contain ";"');
    await presets.field('sysctl-value-2').fill('20');
    await presets.save();
    await page.getByTestId('preset-title').filter({ hasText: 'E2E client' }).waitFor();
  });

  test('plan shows current → new; apply after confirmation shows what took effect', async () => {
    const presets = new PresetsPage(page);
    const host = await presets.plan('lab-client');
    const portRange = presets.planRow(host, 'net.ipv4.ip_local_port_range');
    assert.match(await portRange.innerText(), new RegExp(`${original['net.ipv4.ip_local_port_range']}\\s+1024 65535\\s+will change`));
    assert.equal(await host.locator('[data-testid="plan-file"][data-action="create"]').count(), 2);

    const verification = await presets.applyAndConfirm(host);
    assert.match(await verification.getByTestId('apply-outcome').innerText(), /^Applied/);
    for (const key of KEYS) assert.equal(await presets.verdict(host, key).getAttribute('data-status'), 'applied', key);
    const root = presets.verdict(host, 'root soft+hard nofile');
    assert.equal(await root.getAttribute('data-status'), 'applied');
    assert.match(await root.innerText(), /16000 \/ 16000/);
    const star = presets.verdict(host, '* soft+hard nofile');
    assert.equal(await star.getAttribute('data-status'), 'not verified');
    assert.match(await star.innerText(), /does not apply "\*" lines to root/);
    assert.deepEqual(await liveValues(), { 'net.ipv4.ip_local_port_range': '1024 65535', 'net.ipv4.tcp_tw_reuse': '1', 'net.ipv4.tcp_fin_timeout': '20' });
    await presets.pendingRevert('lab-client').waitFor();
  });

  test('revert puts the host back and clears the pending revert', async () => {
    const presets = new PresetsPage(page);
    const result = await presets.revert(presets.host('lab-client'));
    assert.equal(await result.getAttribute('data-outcome'), 'reverted');
    await presets.pendingRevert('lab-client').waitFor({ state: 'detached' });
    assert.deepEqual(await liveValues(), original);
    const files = await labExec('client', ['sh', '-c', 'ls /etc/security/limits.d /etc/sysctl.d /var/lib/benchlab']);
    assert.doesNotMatch(files.stdout, /benchlab\.conf|presets-restore/);
  });

  test('across the suite the page reports no CSP violation', async () => {
    assert.deepEqual(await opened.cspViolations(), []);
  });
});
