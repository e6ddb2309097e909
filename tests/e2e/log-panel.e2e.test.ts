// The log panel with the lab, in web mode and real Chromium: a Node template built on this machine
// (npm ci, then esbuild) and deployed to lab-server from the Templates page; then, on another page
// after a reload, the log drawer still shows that deploy's lines and its build's output, with npm's
// one-line-per-fetch flood folded into one summary line.

import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { labSkipReason, labTargets } from '../support/lab-hosts.ts';
import { openWebApp, type OpenWebApp } from '../support/open-web-app.ts';
import { HostsPage } from './pages/hosts-page.ts';
import { LogDrawer } from './pages/log-drawer.ts';
import { stopDeployedServer, TemplatesPage } from './pages/templates-page.ts';

const skip = labSkipReason();
const PORT = 18281;

describe('Log panel with the lab', { skip: skip ?? false }, () => {
  let opened: OpenWebApp;
  let page: Page;
  let targets: Awaited<ReturnType<typeof labTargets>>;

  before(async () => {
    // Hosts of its own: templates.e2e deploys to the default lab's server meanwhile.
    targets = await labTargets('logpanel');
    opened = await openWebApp({ viewport: { width: 1280, height: 900 } });
    page = opened.page;
  });

  after(async () => {
    // A test that failed midway must not leave its server running for the next run.
    await stopDeployedServer(page, 'lab-server');
    await opened?.close();
  });

  test('the drawer opened on another page after a reload shows the backlog of a deploy and its build', async () => {
    await new HostsPage(page).addLabHost('lab-server', targets.server, targets.keyPath);

    const templates = new TemplatesPage(page);
    await templates.open();
    await templates.target('lab-server', PORT);
    await templates.deploy('node', 'sync');
    // A fresh data dir: the build runs (npm ci, then esbuild), fetching at least its package documents.
    await templates.waitForState('lab-server', 'ready', 180_000);
    await templates.stop('lab-server');
    await templates.waitForState('lab-server', 'stopped');

    await page.getByTestId('nav-sessions').click();
    await page.getByTestId('page-sessions').waitFor();
    await page.reload();
    await page.getByTestId('page-sessions').waitFor();
    const drawer = new LogDrawer(page);
    await drawer.open();

    const topics = await drawer.topicsOnceOffered(['templates: lab-server', 'templates: lab-server build']);
    assert.ok(topics.includes('templates: lab-server'), `the deploy's topic is offered: ${topics.join(', ')}`);
    assert.ok(topics.includes('templates: lab-server build'), `the build's topic is offered: ${topics.join(', ')}`);

    await drawer.showTopic('templates: lab-server');
    await drawer.waitForLine(/lab-server: deploying Node\.js/);
    await drawer.waitForLine(/lab-server: Node\.js .* is ready at http:/);

    await drawer.showTopic('templates: lab-server build');
    await drawer.waitForLine(/lab-server build: dist\/server\.mjs: \d+ KiB with/);
    await drawer.waitForLine(/lab-server build: npm fetched \d+ package/);
    assert.doesNotMatch(await drawer.rowsText(), /npm http fetch/, 'one line per fetch is folded into the summary');
    await page.screenshot({ path: join(tmpdir(), 'benchlab-log-drawer.png') });
    await drawer.close();
  });

  test('across the suite the page reports no CSP violation', async () => {
    assert.deepEqual(await opened.cspViolations(), []);
  });
});
