// The deployment card's Stop in web mode and real Chromium against the lab (instance `deploycard`):
// while a run loads the server, Stop asks first, naming the run (as Deploy's Replace does); Keep it
// running keeps it; Stop it stops it, and the run that loaded it ends failed, its server lost. And
// Deploy while a plan (a `benchlab run` on the same store) holds the server host and runs its server:
// the page says the plan holds it, naming the plan, and offers no Replace the hold would refuse; the
// plan runs to its end undisturbed. (Refused while no server runs yet: tests/lab/deploy-hold.test.ts.)

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import type { BenchlabApi } from '../../app/contract.ts';
import { labExec } from '../lab/lab.ts';
import { labSkipReason, labTargets } from '../support/lab-hosts.ts';
import { until, within } from '../support/until.ts';
import { openWebApp, type OpenWebApp } from '../support/open-web-app.ts';
import { HostsPage } from './pages/hosts-page.ts';
import { startLabLoad, stopDeployedServer, TemplatesPage } from './pages/templates-page.ts';

const skip = labSkipReason();
const INSTANCE = 'deploycard';
const PORT = 18612;
const CLI = resolve(import.meta.dirname, '..', '..', 'main', 'cli', 'benchlab.ts');

describe('the deployment card with the lab', { skip: skip ?? false }, () => {
  let opened: OpenWebApp;
  let page: Page;
  let targets: Awaited<ReturnType<typeof labTargets>>;

  before(async () => {
    targets = await labTargets(INSTANCE);
    opened = await openWebApp();
    page = opened.page;
  });

  after(async () => {
    await stopDeployedServer(page, 'lab-server');
    await opened?.close();
  });

  test('Stop asks first while a run loads the server, naming the run; Keep it running keeps it, Stop it stops it and the run ends failed', async () => {
    const hosts = new HostsPage(page);
    await hosts.addLabHost('lab-server', targets.server, targets.keyPath);
    await hosts.addLabHost('lab-client', targets.client, targets.keyPath);
    const templates = new TemplatesPage(page);
    await templates.open();
    await templates.target('lab-server', PORT);
    await templates.deploy('node', 'sync');
    await templates.waitForState('lab-server', 'ready', 120_000);

    // A run loading it, started as the Run page starts one; it ends only when its server goes.
    const sessionId = await startLabLoad(page, 'E2E card load', targets.server.address, PORT);

    await templates.stop('lab-server');
    await templates.stopQuestion('lab-server').waitFor();
    assert.equal(
      (await templates.stopQuestion('lab-server').getByTestId('deployment-stop-question').innerText()).trim(),
      `lab-server runs Node.js (node:http) (sync) on port ${PORT}; run “E2E card load” loads it now. Stop it? That run loses its server and ends failed.`,
    );
    await page.screenshot({ path: join(tmpdir(), 'benchlab-deployment-stop.png'), fullPage: false });
    await templates.answerStop('lab-server', false);
    assert.equal(await templates.deployment('lab-server').getByTestId('deployment-state').innerText(), 'ready', 'Keep it running keeps it');
    assert.equal((await fetch(`http://${targets.server.address}:${PORT}/hello`)).status, 200);

    await templates.stop('lab-server');
    await templates.answerStop('lab-server', true);
    await templates.waitForState('lab-server', 'stopped');
    const ended = await page.evaluate(async (id) => {
      const api = (globalThis as unknown as { benchlab: BenchlabApi }).benchlab;
      for (;;) {
        const { run } = await api.runs.live();
        if (run?.sessionId === id && ['completed', 'failed', 'cancelled'].includes(run.status)) return { status: run.status, lost: run.steps[0]!.degraded?.lost ?? null };
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }, sessionId);
    assert.deepEqual(ended, { status: 'failed', lost: 'server' });
  });

  test('Deploy while a plan holds the server host says so beside the button, naming the plan, and asks nothing; the plan runs to its end', async () => {
    // The hosts the first test added, named in the plan file; the CLI works on the web app's store.
    const dataDir = opened.app.dataDir;
    writeFileSync(
      join(dataDir, 'held.yaml'),
      `version: 1
name: Overnight
hosts: { client: lab-client, server: lab-server }
presets: { client: null, server: null }
templates:
  - { template: node, variant: async, port: ${PORT + 2} }
profile:
  request: { path: /hello }
  load: { model: closed, connections: 1, durationS: 45 }
`,
    );
    const child = spawn(process.execPath, [CLI, 'run', 'held.yaml', '--data-dir', dataDir], { cwd: dataDir, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const ended = within(new Promise<number | null>((done) => child.on('close', done)), 'the plan', 240_000);
    try {
      await until(
        async () => (await labExec('server', ['sh', '-c', 'cat /var/lib/benchlab/run/*.hold 2>/dev/null'], { instance: INSTANCE })).stdout.includes('Overnight'),
        'the plan holding lab-server',
        120_000,
        200,
      );
      // The plan's own server up too: Deploy would replace it, but while the plan holds the host no
      // answer could let it, so the page says so instead of asking.
      await until(
        async () => (await labExec('server', ['sh', '-c', `curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:${PORT + 2}/hello`], { instance: INSTANCE })).stdout === '200',
        "the plan's server answering",
        120_000,
        200,
      );
      const templates = new TemplatesPage(page);
      await templates.open();
      await templates.target('lab-server', PORT + 1);
      await templates.deploy('node', 'sync');
      const held = templates.replaceQuestion('node');
      await held.waitFor({ timeout: 30_000 });
      assert.equal(await held.getAttribute('data-held'), 'yes');
      assert.match(
        await held.getByTestId('template-replace-question').innerText(),
        /^lab-server runs Node\.js \(node:http\) \(async\) on port \d+, held by the benchlab CLI \(pid \d+ on [^)]+\).*\. The host is held by plan "Overnight" of the benchlab CLI \(pid \d+ on [^)]+\) \(since [^)]+\): Node\.js \(node:http\) \(sync\) on port \d+ can be deployed once that plan has ended; nothing was touched\.$/,
      );
      assert.equal(await held.getByTestId('template-replace-confirm').count(), 0, 'no Replace to offer that the hold would refuse');
      await page.screenshot({ path: join(tmpdir(), 'benchlab-deploy-held.png'), fullPage: false });
      await templates.answerReplace('node', false);
      assert.equal(await templates.deployment('lab-server').getByTestId('deployment-state').filter({ hasText: /^failed$/ }).count(), 0, 'nothing was deployed, so nothing failed');
    } finally {
      const code = await ended;
      assert.equal(code, 0, stderr);
    }
  });

  test('across the suite the page reports no CSP violation', async () => {
    assert.deepEqual(await opened.cspViolations(), []);
  });
});
