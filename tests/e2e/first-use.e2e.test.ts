// A first start as a new user meets it, in web mode and real Chromium: with no session yet the app
// opens on New plan; a terminal draws styled with no Content-Security-Policy violation reported;
// and, with the lab, the first-use host key prompt is a question (no red failure, its fingerprint
// wrapped inside the dialog even in a narrow window) and the Templates page deploys to the server
// host by default, and a preset's plan on it fits 1280 pixels.

import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import type { BenchlabApi } from '../../app/contract.ts';
import { labSkipReason, labTargets } from '../support/lab-hosts.ts';
import { openWebApp, type OpenWebApp } from '../support/open-web-app.ts';
import { HostsPage } from './pages/hosts-page.ts';
import { PresetsPage } from './pages/presets-page.ts';
import { NARROW_WINDOW } from './pages/table-layout.ts';
import { TemplatesPage } from './pages/templates-page.ts';
import { TerminalPage } from './pages/terminal-page.ts';

const SHOTS = process.env.BENCHLAB_SCREENSHOTS ?? join(tmpdir(), 'benchlab-e2e-1280');
/** Sorts after "This machine", so "Deploy to" choosing it is not the list's first entry by chance. */
const SERVER = 'web-server';

let opened: OpenWebApp;
let page: Page;

before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  opened = await openWebApp({ viewport: NARROW_WINDOW });
  page = opened.page;
});

after(async () => {
  await opened?.close();
});

test('with no session yet, the app opens on New plan', async () => {
  await page.getByTestId('page-wizard').waitFor();
  assert.equal(await page.getByTestId('nav-wizard').getAttribute('aria-current'), 'page');
  assert.equal(new URL(page.url()).hash, '#/wizard');
});

test('a terminal is styled and the CSP reports no violation', async () => {
  const terminals = new TerminalPage(page);
  const local = await terminals.addLocalHost();
  await terminals.open();
  const panel = await terminals.openTerminal(local.name);
  await terminals.type(panel, 'echo styled-$((6*7))');
  await terminals.press(panel, 'Enter');
  await terminals.waitForRows(panel, /^styled-42\s*$/);
  // Rules only xterm's run-time styles set (xterm.css has none of them).
  const style = await terminals.rowsStyle(panel);
  assert.equal(style.whiteSpace, 'pre');
  assert.equal(style.color, 'rgb(223, 228, 236)');
  assert.deepEqual(await opened.cspViolations(), []);
});

describe('with the lab', { skip: labSkipReason() ?? false }, () => {
  let targets: Awaited<ReturnType<typeof labTargets>>;
  before(async () => {
    targets = await labTargets();
  });

  test('the first-use host key prompt is a question, its fingerprint wrapped inside the dialog', async () => {
    const hosts = new HostsPage(page);
    await hosts.open();
    await hosts.add({ name: SERVER, address: targets.server.address, user: 'root', auth: 'key', keyPath: targets.keyPath });
    // A narrow window, where a fingerprint that does not wrap runs out of the dialog.
    await page.setViewportSize({ width: 640, height: 800 });
    const prompt = await hosts.hostKeyPrompt(SERVER);
    await page.screenshot({ path: join(SHOTS, 'host-key-prompt-640.png') });
    assert.equal(prompt.fingerprint, targets.server.pinnedFingerprint);
    assert.deepEqual(prompt.problems, []);
    const badge = await hosts.badge(SERVER);
    assert.equal(badge.failed, false, `the host shows "${badge.text}"`);
    assert.match(await hosts.state(SERVER).innerText(), /trust it to connect/);
    await page.getByTestId('trust-key').click();
    await hosts.waitForState(SERVER, 'connected');
    await page.setViewportSize(NARROW_WINDOW);
  });

  test('"Deploy to" defaults to the server host of the plan being drafted', async () => {
    // The wizard's hosts step saves its draft so; a session run later would name the server the same way.
    await page.evaluate(async (name) => {
      const api = (globalThis as unknown as { benchlab: BenchlabApi }).benchlab;
      const server = (await api.hosts.list({})).find((host) => host.name === name)!;
      const saved = await api.drafts.get({ key: 'wizard' });
      await api.drafts.save({ key: 'wizard', draft: { ...(saved.draft ?? {}), serverHostId: server.id } });
    }, SERVER);
    const hosts = new HostsPage(page);
    await hosts.open();
    await hosts.waitForState('This machine', 'connected');
    const templates = new TemplatesPage(page);
    await templates.open();
    assert.equal(await templates.deployTarget(), SERVER);
  });

  test('a preset planned on a connected host fits 1280 pixels with its plan table', async () => {
    const presets = new PresetsPage(page);
    await presets.open();
    await presets.select('High-concurrency server');
    await presets.plan(SERVER);
    await page.getByTestId('plan-table').first().waitFor();
    await page.screenshot({ path: join(SHOTS, 'presets-plan.png') });
    assert.deepEqual(await presets.layoutProblems(), []);
  });
});
