// The Run page end to end in web mode and real Chromium, with "This machine" as the client and a
// local HTTP server as the target: bad profiles are refused with clear messages (0 connections, a
// negative rate, a path without "/", an unreachable target), a short run fills the charts and the
// summary table, and Stop halts the load. No CSP violation on the way (chart.js). A session takes the
// name typed (or the one proposed), the form is kept across navigation and reloads, and on the lab a
// deployment chosen as the target stays chosen through Start. Each test fills in what it relies on
// (the client, the model, the target), so any one of them runs alone or in any order.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../../agent/agent-harness.ts';
import { expectAttribute } from '../support/browser.ts';
import { labSkipReason, labTargets } from '../support/lab-hosts.ts';
import { openWebApp, type OpenWebApp } from '../support/open-web-app.ts';
import { until } from '../support/until.ts';
import { HostsPage } from './pages/hosts-page.ts';
import { RunPage, type ProfileValues } from './pages/run-page.ts';
import { stopDeployedServer, TemplatesPage } from './pages/templates-page.ts';

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

/** The form set for a closed-model run from This machine against the local server, then `values`. */
async function fillLocal(values: ProfileValues = {}): Promise<void> {
  await run.fill({ client: 'This machine', model: 'closed', target: `http://127.0.0.1:${server.port}`, path: '/hello', ...values });
}

/** The session the page shows, or 0 before any. */
async function shownSession(): Promise<number> {
  return (await page.getByTestId('run-status').count()) > 0 ? run.sessionId() : 0;
}

test('bad profiles are refused with messages next to their fields, and nothing starts', async () => {
  const before = await shownSession();
  await run.fill({ client: 'Choose…', target: `http://127.0.0.1:${server.port}`, connections: '0' });
  assert.equal(await run.fieldError('connections').innerText(), 'must be at least 1');
  await run.fill({ connections: '4', path: 'hello' });
  assert.equal(await run.fieldError('path').innerText(), 'must start with "/" (for example /hello)');
  await run.fill({ path: '/hello', model: 'open', rate: '-5' });
  assert.equal(await run.fieldError('rate').innerText(), 'must be greater than 0');
  await run.start();
  // Only Start shows the error of a field left alone (the client host): it shows once Start was
  // handled and refused, and only then does "no run status" say that nothing started.
  assert.equal(await run.fieldError('clientHostId').innerText(), 'choose the host that runs the load');
  assert.equal(await shownSession(), before, 'nothing started');
});

test('an unreachable target is refused with the reason', async () => {
  const gone = await startTestServer();
  const port = gone.port;
  await gone.close();
  const before = await shownSession();
  await fillLocal({ target: `http://127.0.0.1:${port}`, connections: '2', durationS: '2' });
  await run.start();
  await run.error().waitFor();
  assert.match(await run.error().innerText(), new RegExp(`127\\.0\\.0\\.1:${port} is not reachable from This machine: connection refused`));
  assert.equal(await shownSession(), before, 'nothing started');
});

test('a short run fills the charts and the summary in the seeds’ columns', async () => {
  await fillLocal({ name: '', connections: '4', durationS: '3', warmupS: '1' });
  // With no name typed, the session takes the one proposed.
  const proposed = await run.proposedName();
  assert.equal(proposed, `http://127.0.0.1:${server.port}/hello — c=4, 3 s`);
  await run.start();
  assert.equal(await run.waitForState(['completed', 'failed', 'cancelled']), 'completed');
  assert.equal(await run.sessionName(), proposed);
  assert.equal(await run.summaryRows().count(), 1);
  const rps = Number((await page.getByTestId('summary-rps').innerText()).replace(/,/g, ''));
  assert.ok(rps > 0, `${rps} requests/s`);
  assert.notEqual(await page.getByTestId('summary-p99').innerText(), '–');
  assert.equal(await page.getByTestId('summary-failed').innerText(), '0');
  assert.equal(await page.getByTestId('summary-not-sent').innerText(), '0');
  assert.equal(await page.getByTestId('summary-books').innerText(), '✓', 'every scheduled request accounted for');
  const identity = (await page.getByTestId('summary-books').getAttribute('title')) ?? '';
  const [scheduled, answered] = [/^([\d,]+) scheduled/, /= ([\d,]+) answered/].map((pattern) => Number(pattern.exec(identity)?.[1]?.replace(/,/g, '')));
  assert.ok(scheduled! > 0 && scheduled === answered, identity);
  const headers = await page.getByTestId('run-summary').locator('th').allInnerTexts();
  for (const column of ['req/s', 'mean ms', 'std dev', 'p50', 'p75', 'p99', 'max', '< 800 ms', '800–1200 ms', '≥ 1200 ms', 'failed', 'timeouts', 'not sent', 'books']) {
    assert.ok(headers.includes(column), `column ${column} in ${headers.join(' | ')}`);
  }
  // ab's rows, and what the latency includes: keep-alive, the connects (made in the warm-up) not in it.
  assert.deepEqual(await page.getByTestId('run-phases').locator('tbody td[title]').allInnerTexts(), ['Connect', 'Waiting', 'Processing', 'Total']);
  assert.match(await page.getByTestId('phases-includes').innerText(), /^Keep-alive: latency runs from each request’s write on an open connection/);
  assert.equal(await page.getByTestId('phases-total-p50').innerText(), await page.getByTestId('summary-p50').innerText(), 'the total row is the headline');
  // The server's charts are there without a server host too, empty (the lab tests read a server's own figures).
  for (const chart of ['rps', 'latency', 'errors', 'cpu', 'memory', 'network', 'server-threads', 'server-switches', 'server-tcp']) await run.waitForChartPoints(chart, 4);
  assert.equal(await page.getByTestId('chart-server-cores').count(), 0, 'no cores read: no per-core chart');
  await page.getByTestId('latency-log').check();
  assert.deepEqual(await opened.cspViolations(), []);
});

test('Stop halts the load', async () => {
  const before = await shownSession();
  await fillLocal({ connections: '2', durationS: '60', warmupS: '0' });
  await run.start();
  await expectAttribute(page.getByTestId('run-status'), 'data-session', { atLeast: before + 1 });
  await run.waitForState(['running']);
  await run.waitForChartPoints('rps', 2);
  await run.stop();
  // Cancelled, not completed: the run was set for a minute and ended at the click.
  assert.equal(await run.waitForState(['cancelled', 'failed', 'completed']), 'cancelled');
  // Stopped by the agent itself at our request (not killed, not failed)…
  assert.equal(await page.getByTestId('summary-row').locator('.badge').innerText(), 'stopped');
  // …and its connections are closed: a load going on would hold them. (How soon after the click
  // the last request came is a speed figure: npm run bench.)
  await until(async () => (await server.openConnections()) === 0, 'the agent to close its connections', 30_000);
});

test('a session takes the name typed, and the form is kept across navigation and a reload', async () => {
  await fillLocal({ name: 'Named on the Run page', connections: '3', durationS: '1', warmupS: '0' });
  const before = await shownSession();
  await run.start();
  // A session shown before (if any) stays until the new one has started.
  await expectAttribute(page.getByTestId('run-status'), 'data-session', { atLeast: before + 1 });
  assert.equal(await run.waitForState(['completed', 'failed', 'cancelled']), 'completed');
  assert.equal(await run.sessionName(), 'Named on the Run page');
  await run.waitForSaved();
  const kept = async () => ({
    name: await run.field('name').inputValue(),
    target: await run.field('target').inputValue(),
    connections: await run.field('connections').inputValue(),
    durationS: await run.field('durationS').inputValue(),
    client: (await run.field('client').locator('option:checked').innerText()).trim(),
  });
  const expected = { name: 'Named on the Run page', target: `http://127.0.0.1:${server.port}`, connections: '3', durationS: '1', client: 'This machine' };
  await page.getByTestId('nav-sessions').click();
  await page.getByTestId('page-sessions').waitFor();
  await run.open();
  await run.waitForSaved();
  assert.deepEqual(await kept(), expected);
  await page.reload();
  await page.getByTestId('status-connection').filter({ hasText: 'Connected' }).waitFor();
  await run.open();
  await run.waitForSaved();
  assert.deepEqual(await kept(), expected);
});

describe('a deployed template as the target, on the lab', { skip: labSkipReason() ?? false }, () => {
  const DEPLOY_PORT = 18297;

  after(async () => {
    // A test that failed midway must not leave its server running for the next run.
    await stopDeployedServer(page, 'lab-server');
  });

  test('the Deployed template field keeps showing the deployment through Start', async () => {
    // Hosts of its own: templates.e2e deploys to the default lab's server meanwhile.
    const targets = await labTargets('rundeploy');
    const hosts = new HostsPage(page);
    for (const role of ['client', 'server'] as const) await hosts.addLabHost(`lab-${role}`, targets[role], targets.keyPath);
    const templates = new TemplatesPage(page);
    await templates.open();
    await templates.target('lab-server', DEPLOY_PORT);
    await templates.deploy('node', 'async');
    await templates.waitForState('lab-server', 'ready', 120_000);

    await run.open();
    const shown = 'Node.js (node:http) (async) on lab-server';
    await run.field('deployment').selectOption({ label: shown });
    await run.fill({ client: 'lab-client', model: 'closed', path: '/hello', name: '', connections: '2', durationS: '1', warmupS: '0', sweep: '' });
    assert.equal(await run.field('target').inputValue(), `http://${targets.server.address}:${DEPLOY_PORT}`);
    assert.equal(await run.deploymentShown(), shown);
    const before = await shownSession();
    await run.start();
    await expectAttribute(page.getByTestId('run-status'), 'data-session', { atLeast: before + 1 });
    assert.equal(await run.waitForState(['completed', 'failed', 'cancelled']), 'completed');
    assert.equal(await run.deploymentShown(), shown, 'still chosen after Start');
    await page.getByTestId('nav-sessions').click();
    await run.open();
    await run.waitForSaved();
    assert.equal(await run.deploymentShown(), shown, 'and after coming back');
    await templates.open();
    await templates.stop('lab-server');
    await templates.waitForState('lab-server', 'stopped');
  });
});
