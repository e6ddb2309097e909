// The Run page with two load clients, in web mode and real Chromium, on a lab of its own (`scaleui`,
// two clients): both clients picked with weights (each weight's hint is the host's core count), a
// short run against a server on the lab's bridge, and the clients table naming both hosts with
// their shares of the load, clock offsets ± uncertainty and status; the Per client switch; and the
// picks remembered when the page is left and opened again.

import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { labStatus, labUp } from '../lab/lab.ts';
import { labSkipReason } from '../support/lab-hosts.ts';
import { openWebApp, type OpenWebApp } from '../support/open-web-app.ts';
import { HostsPage } from './pages/hosts-page.ts';
import { RunClients } from './pages/run-clients.ts';
import { RunPage } from './pages/run-page.ts';

const INSTANCE = 'scaleui';
const PORT = 18517;

describe('the Run page with two load clients on the lab', { skip: labSkipReason() ?? false }, () => {
  let opened: OpenWebApp;
  let page: Page;
  let target: Server;
  let targetUrl: string;
  let run: RunPage;
  let clients: RunClients;

  before(async () => {
    await labUp({ instance: INSTANCE, clients: 2 });
    const status = await labStatus({ instance: INSTANCE });
    // The target listens on the lab's bridge, which both clients reach.
    target = createServer((_request, response) => response.end('ok'));
    await new Promise<void>((listening) => target.listen(PORT, status.bridge.address, listening));
    targetUrl = `http://${status.bridge.address}:${PORT}`;
    opened = await openWebApp({ timeoutMs: 20_000 });
    page = opened.page;
    const hostsPage = new HostsPage(page);
    for (const [index, host] of status.clients.entries()) await hostsPage.addLabHost(`ui-client${index + 1}`, host, status.keyPath);
    run = new RunPage(page);
    clients = new RunClients(page);
    await run.open();
  });

  after(async () => {
    await opened?.close();
    await new Promise((closed) => (target ? target.close(closed) : closed(undefined)));
  });

  test('two clients with weights: the hint is each host’s core count, and a host is offered once', async () => {
    await clients.pick([{ host: 'ui-client1' }, { host: 'ui-client2', weight: '3' }]);
    assert.match(await clients.weightHint(0), /^\d+ \(cores\)$/);
    assert.match(await clients.weightHint(1), /^\d+ \(cores\)$/);
    assert.equal(await clients.hostSelect(1).locator('option', { hasText: 'ui-client1' }).isDisabled(), true);
    await clients.weight(0).fill('1');
    await clients.weight(1).fill('0');
    await run.start();
    assert.equal(await run.fieldError('client-weight-1').innerText(), 'must be a number above 0 and at most 1000, or empty for the core count');
    assert.equal(await page.getByTestId('run-status').count(), 0, 'nothing started');
    await clients.weight(1).fill('3');
  });

  test('a run from both: the clients table names each with its share, clock offset and status', async () => {
    await run.fill({ target: targetUrl, connections: '8', durationS: '3' });
    await run.start();
    await clients.table().waitFor();
    assert.equal(await run.waitForState(['completed', 'failed', 'cancelled']), 'completed');
    const rows = await clients.tableRows();
    assert.deepEqual(rows.map((row) => row.host), ['ui-client1', 'ui-client2']);
    // Weights 1 and 3 of 8 connections: a quarter and three quarters.
    assert.match(rows[0]!.share, /^25 % \(weight 1\) · 2 connections$/);
    assert.match(rows[1]!.share, /^75 % \(weight 3\) · 6 connections$/);
    for (const row of rows) {
      assert.match(row.clock, /^[+−][\d.]+ ms ± [\d.]+ ms$/, `${row.host}'s clock offset is shown with its uncertainty`);
      assert.equal(row.status, 'done');
      assert.equal(row.problem, '');
    }
    assert.equal(await page.getByTestId('run-degraded').count(), 0);
    await run.waitForChartPoints('rps', 3);
  });

  test('Per client adds each client’s series to the charts and keeps what was drawn', async () => {
    const drawn = await page.getByTestId('chart-rps').getAttribute('data-points');
    await clients.showPerClient(true);
    assert.equal(await page.getByTestId('charts-per-client').isChecked(), true);
    assert.equal(await page.getByTestId('chart-rps').getAttribute('data-points'), drawn);
    await clients.showPerClient(false);
  });

  test('the picks are remembered when the page is left and opened again', async () => {
    await page.getByTestId('nav-hosts').click();
    await page.getByTestId('page-hosts').waitFor();
    await run.open();
    assert.deepEqual(await clients.picked(), [
      { host: 'ui-client1', weight: '1' },
      { host: 'ui-client2', weight: '3' },
    ]);
  });

  test('across it all the page reports no CSP violation', async () => {
    assert.deepEqual(await opened.cspViolations(), []);
  });
});
