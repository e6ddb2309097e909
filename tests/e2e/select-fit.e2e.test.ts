// Select boxes show their text whole in a 1280-pixel window, in web mode and real Chromium: on the
// Run page in both load models (the Model select's "Open: target rate (Gatling, loadtest --rps)"),
// the host form, the Templates page and the wizard, every visible select is at least as wide as its
// longest option needs.

import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { openWebApp, type OpenWebApp } from '../support/open-web-app.ts';
import { HostsPage } from './pages/hosts-page.ts';
import { RunPage } from './pages/run-page.ts';
import { clippedSelects } from './pages/select-fit.ts';
import { TemplatesPage } from './pages/templates-page.ts';
import { WizardPage } from './pages/wizard-page.ts';

let opened: OpenWebApp;
let page: Page;

before(async () => {
  opened = await openWebApp({ viewport: { width: 1280, height: 900 } });
  page = opened.page;
  await new HostsPage(page).addLocal();
});

after(async () => {
  await opened?.close();
});

test('the Run page: no select cuts its text, in the closed and the open model', async () => {
  const run = new RunPage(page);
  await run.open();
  const form = page.getByTestId('page-run');
  const closed = await clippedSelects(form);
  await run.fill({ model: 'open' });
  await page.screenshot({ path: join(tmpdir(), 'benchlab-selects-run-1280.png') });
  const open = await clippedSelects(form);
  await run.fill({ model: 'closed' });
  assert.deepEqual({ closed, open }, { closed: [], open: [] });
});

test('the host form, the Templates page and the wizard: no select cuts its text', async () => {
  const hosts = new HostsPage(page);
  await hosts.open();
  await page.getByTestId('host-add').click();
  assert.deepEqual(await clippedSelects(page.getByTestId('page-hosts')), [], 'host form');
  const templates = new TemplatesPage(page);
  await templates.open();
  await templates.card('node').waitFor();
  assert.deepEqual(await clippedSelects(page.getByTestId('page-templates')), [], 'Templates page');
  await new WizardPage(page).open();
  assert.deepEqual(await clippedSelects(page.getByTestId('page-wizard')), [], 'wizard');
});

test('across the suite the pages report no CSP violation', async () => {
  assert.deepEqual(await opened.cspViolations(), []);
});
