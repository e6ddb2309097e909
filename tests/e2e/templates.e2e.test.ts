// The Templates page in web mode and real Chromium against the lab: the catalog (with a broken
// manifest shown, not fatal), knob bounds checked as you type, deploying Node to lab-server until
// it is ready, the server answering, its logs in the log terminal, and Stop; a build's download
// progress on the deployment card; a deploy over a running server asked first, naming the run that
// loads it, and that run degraded once the server is replaced.

import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { bundledPaths } from '../../main/services/templates/catalog.ts';
import type { BenchlabApi } from '../../app/contract.ts';
import { labSkipReason, labTargets } from '../support/lab-hosts.ts';
import { until } from '../support/until.ts';
import { openDatabase } from '../../main/services/store/database.ts';
import { openWebApp, type OpenWebApp } from '../support/open-web-app.ts';
import { HostsPage } from './pages/hosts-page.ts';
import { startLabLoad, stopDeployedServer, TemplatesPage } from './pages/templates-page.ts';

const skip = labSkipReason();
const PORT = 18280;

describe('Templates page with the lab', { skip: skip ?? false }, () => {
  let opened: OpenWebApp;
  let page: Page;
  let templatesDir: string;
  let targets: Awaited<ReturnType<typeof labTargets>>;

  before(async () => {
    targets = await labTargets();
    // The bundled templates, one that exits at start and one with a broken manifest, through BENCHLAB_TEMPLATES_DIR.
    templatesDir = mkdtempSync(join(tmpdir(), 'benchlab-e2e-templates-'));
    cpSync(bundledPaths().templatesDir, templatesDir, { recursive: true });
    for (const fixture of ['exits-at-start', 'downloads-at-build']) cpSync(join(import.meta.dirname, '..', 'lab', 'fixtures', 'templates', fixture), join(templatesDir, fixture), { recursive: true });
    mkdirSync(join(templatesDir, 'broken-one'));
    writeFileSync(join(templatesDir, 'broken-one', 'template.json'), JSON.stringify({ schema: 1, id: 'broken-one', name: 'Broken' }));
    process.env.BENCHLAB_TEMPLATES_DIR = templatesDir;
    opened = await openWebApp();
    page = opened.page;
  });

  after(async () => {
    // A test that failed midway must not leave its server running for the next run.
    await stopDeployedServer(page, 'lab-server');
    await opened?.close();
    delete process.env.BENCHLAB_TEMPLATES_DIR;
    if (templatesDir) rmSync(templatesDir, { recursive: true, force: true });
  });

  test('the catalog lists the templates and explains the broken manifest', async () => {
    const templates = new TemplatesPage(page);
    await templates.open();
    await templates.card('node').waitFor();
    await templates.card('apache-static').waitFor();
    assert.match(await templates.card('apache-static').innerText(), /\/hello \/file \/health/);
    assert.equal(await templates.broken().innerText(), 'broken-one cannot be used: template.json: description: is required; requires: is required; endpoints: is required');
    assert.match(await page.getByTestId('templates-no-host').innerText(), /Connect the server host on the Hosts page first/);
  });

  test('Node deploys to lab-server, becomes ready, serves, logs, and stops', async () => {
    await new HostsPage(page).addLabHost('lab-server', targets.server, targets.keyPath);

    const templates = new TemplatesPage(page);
    await templates.open();
    await templates.target('lab-server', PORT);
    await templates.setKnob('node', 'workers', '100');
    assert.match(await templates.card('node').getByTestId('template-problem').innerText(), /knob "workers" \(Cluster workers\): must be between 1 and 64 \(got 100\)/);
    assert.equal(await templates.deployButton('node').isDisabled(), true);
    await templates.setKnob('node', 'workers', '2');

    const started = Date.now();
    await templates.deploy('node', 'sync');
    await templates.waitForState('lab-server', 'ready');
    const readyMs = Date.now() - started;
    const card = templates.deployment('lab-server');
    assert.match(await card.getByTestId('deployment-url').innerText(), new RegExp(`http://${targets.server.address.replace(/\./g, '\\.')}:${PORT}/`));
    assert.match(await card.getByTestId('deployment-components').innerText(), /^runs with node \d+\.\d+\.\d+, pg \d+\.\d+\.\d+$/);
    const answer = await fetch(`http://${targets.server.address}:${PORT}/hello`);
    assert.equal(await answer.text(), 'hello world\n');
    await page.screenshot({ path: join(tmpdir(), 'benchlab-templates-ready.png'), fullPage: true });
    await templates.waitForLog(/lab-server node: node v\d+\.\d+\.\d+ pg \d+\.\d+\.\d+ worker \d \(pid \d+\): listening on port 18280/);
    console.log(`deploy to ready through the UI: ${readyMs} ms`);

    await templates.stop('lab-server');
    await templates.waitForState('lab-server', 'stopped');
    assert.match(await card.getByTestId('deployment-message').innerText(), /Stopped Node\.js \(node:http\) \(gracefully\); the host is clean\./);
    await assert.rejects(fetch(`http://${targets.server.address}:${PORT}/hello`));
  });

  test('a server that exits at start shows as failed with its log tail', async () => {
    const templates = new TemplatesPage(page);
    await templates.target('lab-server', PORT);
    await templates.deploy('exits-at-start');
    await templates.waitForState('lab-server', 'failed');
    const card = templates.deployment('lab-server');
    assert.match(await card.getByTestId('deployment-message').innerText(), /exited with code 3 before it answered GET \/health\. The server was stopped and the host cleaned\./);
    assert.match(await card.getByTestId('deployment-log-tail').innerText(), /boom: the configuration file is missing/);
    assert.equal(await page.getByTestId('templates-error').count(), 0, 'shown once, on the card');
  });

  test("a build's downloads show on the card while it runs", async () => {
    const templates = new TemplatesPage(page);
    await templates.target('lab-server', PORT);
    await templates.deploy('downloads-at-build');
    const card = templates.deployment('lab-server');
    // The fixture's build prints three Maven downloads, a fourth after a pause, then works on until cancelled.
    await card.getByTestId('deployment-progress').filter({ hasText: 'Maven downloaded 3 files, 18 kB so far; now c-3.jar' }).waitFor();
    assert.match(await card.getByTestId('deployment-step').innerText(), /: Build on this machine — fetch as Maven does$/);
    await card.getByTestId('deployment-cancel').click();
    await templates.waitForState('lab-server', 'stopped');
    assert.match(await card.getByTestId('deployment-message').innerText(), /Cancelled during "build on this machine"; nothing was started on the host\./);
    assert.equal(await card.getByTestId('deployment-progress').count(), 0, 'the progress line goes with the build');
  });

  test('Deploy over a running server asks first, naming it and the run loading it; Keep it keeps it, Replace it replaces it and the run says so', async () => {
    // The suite's lab hosts (the default lab's server is this suite's), added here when this test runs alone.
    const have = await page.evaluate(async () => (await (globalThis as unknown as { benchlab: BenchlabApi }).benchlab.hosts.list()).map((host) => host.name));
    const hosts = new HostsPage(page);
    if (!have.includes('lab-server')) await hosts.addLabHost('lab-server', targets.server, targets.keyPath);
    if (!have.includes('lab-client')) await hosts.addLabHost('lab-client', targets.client, targets.keyPath);
    const templates = new TemplatesPage(page);
    await templates.open();
    await templates.target('lab-server', PORT);
    await templates.deploy('node', 'sync');
    await templates.waitForState('lab-server', 'ready', 120_000);
    assert.equal(await templates.replaceQuestion('node').count(), 0, 'a free host is not asked about');

    // A run loading it, started as the Run page starts one.
    const sessionId = await startLabLoad(page, 'E2E load', targets.server.address, PORT);

    // Another port, another variant: still the one server the host runs, and still asked about.
    await templates.target('lab-server', PORT + 1);
    await templates.deploy('node', 'async');
    await templates.replaceQuestion('node').waitFor();
    assert.equal(
      await templates.replaceQuestion('node').getByTestId('template-replace-question').innerText(),
      `lab-server runs Node.js (node:http) (sync) on port ${PORT}, deployed from this Benchlab; run “E2E load” loads it now. Replace it with Node.js (node:http) (async) on port ${PORT + 1}? Whoever uses it loses it.`,
    );
    assert.equal(await templates.deployButton('node').isDisabled(), true, 'no second deploy while the question is open');
    await page.screenshot({ path: join(tmpdir(), 'benchlab-templates-replace.png'), fullPage: false });
    await templates.answerReplace('node', false);
    assert.equal(await templates.deploymentTitle('lab-server'), `lab-server: Node.js (node:http) (sync, port ${PORT})`, 'Keep it keeps it');
    assert.equal((await fetch(`http://${targets.server.address}:${PORT}/hello`)).status, 200);

    await templates.deploy('node', 'async');
    await templates.answerReplace('node', true);
    await until(async () => (await templates.deploymentTitle('lab-server')) === `lab-server: Node.js (node:http) (async, port ${PORT + 1})`, 'the new deployment on its card', 30_000, 200);
    await templates.waitForState('lab-server', 'ready', 120_000);
    // The run that loaded the replaced server records it and ends failed, not completed.
    const ended = await page.evaluate(async (id) => {
      const api = (globalThis as unknown as { benchlab: BenchlabApi }).benchlab;
      for (;;) {
        const { run } = await api.runs.live();
        if (run?.sessionId === id && ['completed', 'failed', 'cancelled'].includes(run.status)) return { status: run.status, message: run.message, degraded: run.steps[0]!.degraded };
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }, sessionId);
    assert.equal(ended.status, 'failed', `the server pids the run saw: ${ended.status === 'failed' ? '' : serverPids(opened.app.dataDir, sessionId)}`);
    assert.equal(ended.degraded?.lost, 'server');
    assert.match(ended.message ?? '', /degraded: the server under test, node · sync, was taken down by this Benchlab to deploy Node\.js \(node:http\) in its place at \d+\.\d s\. The load was stopped/);
    await stopDeployedServer(page, 'lab-server');
  });

  test('across the suite the page reports no CSP violation', async () => {
    assert.deepEqual(await opened.cspViolations(), []);
  });
});

/** The pid the server sampler found each second of a session, from its stored seconds: why a change went unseen. */
function serverPids(dataDir: string, sessionId: number): string {
  const { db } = openDatabase(dataDir);
  try {
    const rows = db
      .prepare("SELECT s.second, json_extract(s.server_metrics, '$.processPid') AS pid FROM sample s JOIN run r ON r.id = s.run_id WHERE r.session_id = ? ORDER BY s.id")
      .all(sessionId) as Array<{ second: number; pid: number | null }>;
    return rows.map((row) => `${row.second}:${row.pid ?? '-'}`).join(' ');
  } finally {
    db.close();
  }
}
