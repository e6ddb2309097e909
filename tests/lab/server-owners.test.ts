// One owner per server, with two Benchlab processes on one store and one set of hosts (lab instance
// `owners`): the app (a back end in this process, as web mode runs it) deploys Node to lab-server,
// and a real `benchlab` CLI process on the same data dir tries to take the host. A plan there is
// refused before it applies, deploys or stops anything, naming the app; the app's server keeps
// running, untouched. A plain `benchlab stop` is refused too; one naming the deployment stops it
// under the app's run, which records that as a fault — its step degraded with when and what, the
// load stopped, the session failed, never completed as one template's.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { LivePoints, LiveRun } from '../../app/runs/runs.ts';
import type { Deployment } from '../../app/templates/templates-contract.ts';
import { runDeploymentOf } from '../../app/runs/run-deployment.ts';
import { labSkipReason } from '../support/lab-hosts.ts';
import { openLabBackend, type LabBackend } from '../support/lab-backend.ts';
import { within } from '../support/until.ts';
import { labExec } from './lab.ts';

const skip = labSkipReason();
const INSTANCE = 'owners';
const PORT = 18520;
const CLI = resolve(import.meta.dirname, '..', '..', 'main', 'cli', 'benchlab.ts');

interface Ended {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A `benchlab` CLI process on the app's data dir, run to its end. */
function cli(dataDir: string, args: string[]): Promise<Ended> {
  const child = spawn(process.execPath, [CLI, ...args, '--data-dir', dataDir], { cwd: dataDir, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return within(new Promise<Ended>((done) => child.on('close', (code) => done({ code, stdout, stderr }))), `benchlab ${args.join(' ')}`, 240_000);
}

/** The pid listening on the port on the lab's server, or null. */
async function listener(port: number): Promise<number | null> {
  const found = await labExec('server', ['sh', '-c', `ss -ltnpH 'sport = :${port}' | grep -o 'pid=[0-9]*' | head -1 | cut -d= -f2`], { instance: INSTANCE });
  const pid = Number(found.stdout.trim());
  return pid > 0 ? pid : null;
}

async function sysctl(key: string): Promise<string> {
  return (await labExec('server', ['sysctl', '-n', key], { instance: INSTANCE })).stdout.trim();
}

describe('two Benchlab processes, one store, one server host', { skip: skip ?? false }, () => {
  let app: LabBackend;
  let deployment: Deployment;

  before(async () => {
    app = await openLabBackend(INSTANCE, 'benchlab-owners-', { sharedCaches: true, transport: 'web' });
    deployment = await app.ok<Deployment>('templates.deploy', { hostId: app.serverId, templateId: 'node', variant: 'async', port: PORT });
  });

  after(async () => {
    await app?.services.templates.stop(app.serverId).catch(() => undefined);
    await app?.close();
  });

  test("a CLI plan on the app's server host is refused before it touches anything, and the app's server keeps running", async () => {
    const pid = await listener(PORT);
    assert.ok(pid, "the app's server listens");
    const finBefore = await sysctl('net.ipv4.tcp_fin_timeout');
    assert.notEqual(finBefore, '15', 'the preset would change something');
    writeFileSync(
      join(app.dir, 'plan.yaml'),
      `version: 1
name: Intruder
hosts: { client: lab-client, server: lab-server }
presets: { client: null, server: load-client }
templates:
  - { template: node, variant: sync, port: ${PORT + 1} }
profile:
  request: { path: /hello }
  load: { model: closed, connections: 2, durationS: 2 }
`,
    );
    const plan = await cli(app.dir, ['run', 'plan.yaml']);
    assert.equal(plan.code, 2, `refused, nothing changed: ${plan.stderr}`);
    assert.match(
      plan.stderr,
      new RegExp(`lab-server runs Node\\.js \\(node:http\\) \\(async\\) on port ${PORT}, held by Benchlab in web mode \\(pid ${process.pid} on [^)]+\\), heartbeat \\d+ s ago: plan "Intruder" did not start: nothing was applied, deployed or stopped`),
    );
    assert.doesNotMatch(plan.stderr, /^\[\d+\/\d+\]/m, 'no stage ran');
    assert.equal(await sysctl('net.ipv4.tcp_fin_timeout'), finBefore, 'no preset was applied');
    assert.equal(await listener(PORT), pid, "the app's server is the same process, still listening");
    assert.equal(app.services.templates.deployments().find((entry) => entry.hostId === app.serverId)?.state, 'ready');
    const unasked = app.services.events.recent(500).filter((line) => /without being asked/.test(line.message));
    assert.deepEqual(unasked, [], 'the app saw no unasked end');
  });

  test("the app's server stopped under its run by the CLI (named on purpose): the run is degraded and failed, never completed", async () => {
    const profile = { target: deployment.url!.replace(/\/$/, ''), request: { path: '/hello' }, load: { model: 'closed', connections: 2, durationS: 60 } };
    const measured = new Promise<void>((done) => {
      let count = 0;
      const stop = app.services.bus.subscribe('runs.points', (batch: LivePoints) => {
        app.services.runs.ack(batch.sessionId, batch.seq);
        // Seconds in which the sampler had found the server's process: the run knows its server's pid
        // (on a busy machine the sampler's first readings can come after the stop below otherwise).
        count += batch.points.filter((point) => !point.warmup && (point.server?.threads ?? null) !== null).length;
        if (count >= 3) {
          stop();
          done();
        }
      });
    });
    const run = await app.ok<LiveRun>('runs.start', { name: 'A — the app’s run', clientHostId: app.clientId, serverHostId: app.serverId, profile, deployment: runDeploymentOf(deployment) });
    await within(measured, '3 measured seconds of the app’s run with its server found', 60_000);

    // A plain stop from the other process is refused, naming the server, its holder and the run loading it.
    const refused = await cli(app.dir, ['stop', 'lab-server']);
    assert.equal(refused.code, 2, refused.stderr);
    const id = /\(deployment ([0-9a-f-]+)\)/.exec(refused.stderr)?.[1];
    assert.ok(id, refused.stderr);
    assert.match(refused.stderr, /held by Benchlab in web mode .*; run “A — the app’s run” loads it now: not stopped/);
    assert.equal(app.services.runs.live().run?.status, 'running', 'the run goes on');

    // Named on purpose, it is stopped: the app's run notices, stops its load and says why.
    const stopped = await cli(app.dir, ['stop', 'lab-server', '--deployment', id]);
    assert.equal(stopped.code, 0, stopped.stderr);
    const ended = await within(app.services.runs.finished(run.sessionId), 'the app’s run to end', 60_000);
    assert.equal(ended.status, 'failed');
    const step = ended.steps[0]!;
    assert.equal(step.status, 'failed');
    assert.equal(step.degraded?.lost, 'server');
    assert.equal(step.degraded?.hostName, 'lab-server');
    assert.ok(step.degraded && step.degraded.lostSeconds > 0, `seconds never measured: ${step.degraded?.lostSeconds}`);
    assert.match(ended.message ?? '', /^step 1 \(.*\) degraded: the server under test, node · async, stopped \(pid \d+ ended; nothing listens on port 18520\) at \d+\.\d s; nothing of Benchlab's runs on lab-server now\. The load was stopped/);
    // Ended well before its window: the load did not go on against a server that was not its own.
    assert.ok(step.endedAtS! < 60, `ended at ${step.endedAtS} s of a 60 s window`);
    assert.equal(app.services.sessions.get(run.sessionId).status, 'failed', 'stored failed, not completed');
    const stored = app.services.runs.list(run.sessionId)[0]!;
    assert.equal((stored.step.degraded as { lost?: string } | undefined)?.lost, 'server', 'the stored step says so too');
  });
});
