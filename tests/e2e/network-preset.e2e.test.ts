// A preset's network side on the Presets page in web mode against the `netem` lab's server, in real
// Chromium: the Gatling seed's link preset shows its bandwidth, a duplicate's network fields are
// validated as typed, the plan shows the interface, each setting current → new and the tc command,
// apply shows the bandwidth tc read back, and revert leaves `tc qdisc show` as it was.

import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { labExec } from '../lab/lab.ts';
import { labSkipReason, labTargets } from '../support/lab-hosts.ts';
import { openWebApp, type OpenWebApp } from '../support/open-web-app.ts';
import { HostsPage } from './pages/hosts-page.ts';
import { PresetsPage } from './pages/presets-page.ts';

const skip = labSkipReason();
const INSTANCE = 'netem';

async function qdiscs(): Promise<string> {
  const result = await labExec('server', ['tc', 'qdisc', 'show', 'dev', 'eth0'], { instance: INSTANCE });
  assert.equal(result.code, 0, result.stderr);
  return result.stdout;
}

describe('network presets on the Presets page', { skip: skip ?? false, concurrency: false }, () => {
  let opened: OpenWebApp;
  let page: Page;
  let original: string;

  before(async () => {
    const targets = await labTargets(INSTANCE);
    original = await qdiscs();
    opened = await openWebApp();
    page = opened.page;
    await new HostsPage(page).addLabHost('netem-server', targets.server, targets.keyPath);
  });

  after(async () => {
    await opened?.close();
    // Whatever happened above, leave the lab's server without Benchlab's qdisc.
    if (original !== undefined && (await qdiscs().catch(() => original)) !== original) await labExec('server', ['tc', 'qdisc', 'del', 'dev', 'eth0', 'root'], { instance: INSTANCE });
  });

  test("the Gatling seed's link shows its bandwidth; a duplicate's network fields are validated as typed", async () => {
    const presets = new PresetsPage(page);
    await presets.open();
    await presets.select("Gatling seed's link");
    assert.equal(await page.getByTestId('preset-network').innerText(), 'interface auto\nbandwidth 450 Mbit/s');
    await presets.duplicate();
    await presets.field('preset-name').fill('E2E link');
    await presets.field('network-loss').fill('80');
    assert.equal(await presets.fieldError('network.lossPercent').innerText(), 'must be between 0.001 and 50 %');
    await presets.field('network-loss').fill('');
    await presets.fieldError('network.lossPercent').waitFor({ state: 'detached' });
    await presets.field('network-rate').fill('10');
    await presets.save();
    await page.getByTestId('preset-title').filter({ hasText: 'E2E link' }).waitFor();
  });

  test('plan shows the interface, the bandwidth current → new and the tc command; apply shows what tc read back', async () => {
    const presets = new PresetsPage(page);
    const host = await presets.plan('netem-server');
    const network = host.getByTestId('plan-network');
    assert.equal(await network.getAttribute('data-interface'), 'eth0');
    assert.match(await network.innerText(), /routes to 10\.231\.35\.1, where Benchlab's login comes from/);
    assert.match(await host.locator('[data-testid="plan-network-row"][data-setting="rate"]').innerText(), /bandwidth\s+not shaped\s+10 Mbit\/s\s+will change/);
    assert.match(await host.getByTestId('plan-network-command').innerText(), /^tc qdisc replace dev eth0 root handle b1ab: tbf rate 10mbit/);
    await network.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(tmpdir(), 'benchlab-network-plan.png'), fullPage: false });

    const verification = await presets.applyAndConfirm(host);
    assert.match(await verification.getByTestId('apply-outcome').innerText(), /^Applied/);
    const rate = presets.verdict(host, 'eth0 bandwidth');
    assert.equal(await rate.getAttribute('data-status'), 'applied');
    assert.match(await rate.innerText(), /10 Mbit\/s/);
    assert.match(await qdiscs(), /^qdisc tbf b1ab: root/);
  });

  test('revert leaves tc qdisc show as it was', async () => {
    const presets = new PresetsPage(page);
    const result = await presets.revert(presets.host('netem-server'));
    assert.equal(await result.getAttribute('data-outcome'), 'reverted');
    assert.match(await result.locator('[data-network="eth0"]').innerText(), /restored/);
    assert.equal(await qdiscs(), original);
  });

  test('across the suite the page reports no CSP violation', async () => {
    assert.deepEqual(await opened.cspViolations(), []);
  });
});
