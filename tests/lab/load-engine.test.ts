// The load engine on the two-host lab: the Node template deployed on bl-server, the agent on
// bl-client, a real session that stores samples and a summary; an agent a crashed Benchlab left
// running is cleaned when the host connects; kill -9 of Benchlab stops the load within 5 s, a pulled
// client link within the agent's heartbeat limit. An open-model session on the `engine` lab keeps its books: every stored
// line and the summary balance, a fixed count schedules exactly N, and ONE drain row ends the run.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { AGENT_PROTOCOL_VERSION, HEARTBEAT_TIMEOUT_MS } from '../../app/runs/agent-protocol.ts';
import { intervalBalances, type RunSummary } from '../../app/runs/run-summary.ts';
import type { LiveRun } from '../../app/runs/runs.ts';
import { agentOwner } from '../../main/services/runs/run-service.ts';
import { summarySecondOf } from '../../app/runs/run-second.ts';
import { deploymentServing } from '../../app/runs/run-deployment.ts';
import type { Deployment } from '../../app/templates/templates-contract.ts';
import { SamplesRepository } from '../../main/services/runs/samples-repository.ts';
import { closeDeployedLab, openDeployedLab, type LabBackend } from '../support/lab-backend.ts';
import { labSkipReason } from '../support/lab-hosts.ts';
import { until, within } from '../support/until.ts';
import { labExec, labSetLink, labSsh, type LabInstance } from './lab.ts';
import { agentPidFileName } from '../../main/services/runs/agent-host.ts';

const skip = labSkipReason();
const CHILD = resolve(import.meta.dirname, '..', 'support', 'run-child.ts');
const AGENT = '/var/lib/benchlab/agent/benchlab-agent.mjs';
const AGENT_PIDS = '/var/lib/benchlab/agent/pids/bl-client';

type Lab = Omit<LabBackend, 'close'> & { target: string; close(): Promise<void> };

/** A Benchlab back end on a fresh data dir with both lab hosts connected and the Node template deployed. */
async function openLab(instance: LabInstance, port: number): Promise<Lab> {
  const { lab, target } = await openDeployedLab(instance, 'benchlab-load-lab-', { templateId: 'node', port });
  return { ...lab, target, close: () => closeDeployedLab(lab) };
}

/** The lab of a describe block: opened before its tests, closed after them. */
function labFor(instance: LabInstance, port: number): Lab {
  const lab = {} as Lab;
  before(async () => {
    Object.assign(lab, await openLab(instance, port));
  });
  after(async () => {
    await lab.close?.();
  });
  return lab;
}

/** The session's final state, once it is over. */
function sessionEnd(lab: Pick<Lab, 'ok'>, sessionId: number, timeoutMs: number): Promise<LiveRun> {
  return until(
    async () => {
      const { run } = await lab.ok<{ run: LiveRun }>('runs.live', {});
      return run.sessionId === sessionId && ['completed', 'failed', 'cancelled'].includes(run.status) ? run : null;
    },
    'the session to end',
    timeoutMs,
    200,
  );
}

/** Pids of this data dir's load agents running on the client host (from their pid files). */
async function clientAgentPids(lab: Pick<Lab, 'services'>, instance: LabInstance): Promise<number[]> {
  const owner = agentOwner(lab.services.info().databaseFile);
  const result = await labExec('client', ['sh', '-c', `cat ${AGENT_PIDS}/${owner}-*.pid 2>/dev/null; true`], { instance });
  return result.stdout.split(/\s+/).filter(Boolean).map(Number);
}

async function alive(pid: number, instance: LabInstance): Promise<boolean> {
  const result = await labExec('client', ['sh', '-c', `test -d /proc/${pid} && ! grep -q '^State:.*Z' /proc/${pid}/status && echo yes; true`], { instance });
  return result.stdout.trim() === 'yes';
}

describe('load engine on the lab', { skip: skip ?? false }, () => {
  const lab = labFor('default', 18431);

  test('a real session: Node template on bl-server, the agent on bl-client, samples and a summary stored', async () => {
    // The run is labelled with the deployment it loads, found as the Run page finds it.
    const deployment = deploymentServing(await lab.ok<Deployment[]>('templates.deployments', {}), lab.serverId, lab.target);
    assert.ok(deployment, 'the Node template is ready on bl-server at the target');
    const started = await lab.ok<LiveRun>('runs.start', {
      clientHostId: lab.clientId,
      serverHostId: lab.serverId,
      profile: { target: lab.target, request: { path: '/hello' }, load: { model: 'closed', connections: 8, durationS: 3 }, warmupS: 1 },
      deployment,
    });
    const run = await sessionEnd(lab, started.sessionId, 30_000);
    assert.equal(run.status, 'completed', run.message ?? '');
    const [stored] = await lab.ok<Array<{ id: number; templateId: string; variant: string; sampleCount: number; summary: { requests: number; requestsPerSecond: number; p50Us: number; p99Us: number; failed: number } }>>(
      'runs.list',
      { sessionId: started.sessionId },
    );
    assert.equal(stored!.templateId, 'node');
    assert.equal(stored!.variant, 'async');
    assert.equal(stored!.sampleCount, 3);
    assert.ok(stored!.summary.requests > 0 && stored!.summary.requestsPerSecond > 0, `${stored!.summary.requests} requests`);
    assert.equal(stored!.summary.failed, 0);
    assert.ok(stored!.summary.p50Us > 0 && stored!.summary.p50Us <= stored!.summary.p99Us);
    const samples = new SamplesRepository(lab.services.db).forRun(stored!.id);
    // A second whose server reading did not arrive in time is a gap, never a copy: take the last one read.
    const server = samples.findLast((sample) => sample.serverMetrics !== null)!.serverMetrics!;
    assert.ok(server.processRssBytes! > 10_000_000, 'the template process was found by its port');
    assert.ok(server.cpu! > 0);
    assert.ok((server['tcp.ESTABLISHED'] ?? 0) >= 1);
    assert.ok(samples[0]!.clientMetrics!.openSockets! >= 1);
  });

  test('an agent a crashed Benchlab left running is stopped when the host connects again', async () => {
    const owner = agentOwner(lab.services.info().databaseFile);
    const pidFile = `${AGENT_PIDS}/${agentPidFileName(owner, 999, 'load')}`;
    const start = JSON.stringify({
      type: 'start',
      version: AGENT_PROTOCOL_VERSION,
      config: {
        role: 'load',
        target: { protocol: 'http', hostname: lab.targets.server.address, port: 18431 },
        request: { method: 'GET', path: '/hello', headers: {}, timeoutMs: 2000 },
        load: { model: 'open', rate: 5, durationS: 60, connections: 2 },
        warmupS: 0,
        capS: 90,
        pidFile,
      },
    });
    // A stand-in for the leftover: kept alive by a heartbeat loop of its own, detached from this login.
    // (The group's redirections let the login end at once.)
    await labSsh(
      'client',
      `{ (echo '${start}'; while :; do echo '{"type":"hb"}'; sleep 1; done) | setsid node ${AGENT}; } >/dev/null 2>&1 </dev/null & sleep 1`,
    );
    const [pid] = await until(async () => ((await clientAgentPids(lab, 'default')).length > 0 ? clientAgentPids(lab, 'default') : null), 'the leftover agent', 10_000, 200);
    assert.ok(await alive(pid!, 'default'));
    await lab.ok('hosts.disconnect', { id: lab.clientId });
    await lab.ok('hosts.connect', { id: lab.clientId });
    // (Its feeding loop then dies of SIGPIPE.)
    await until(async () => !(await alive(pid!, 'default')), 'the leftover to be stopped', 10_000, 200);
  });

  test('kill -9 of Benchlab stops the agent on bl-client within 5 s', async (t) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'benchlab-load-kill-'));
    const connect = (['client', 'server'] as const).map((role) => ({
      name: `lab-${role}`,
      address: lab.targets[role].address,
      keyPath: lab.targets.keyPath,
      fingerprint: lab.targets[role].pinnedFingerprint,
    }));
    const profile = { target: lab.target, request: { path: '/hello' }, load: { model: 'closed', connections: 2, durationS: 60 } };
    const child = spawn(process.execPath, [CHILD, dataDir, JSON.stringify({ profile, connect })], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      await new Promise<void>((done, fail) => {
        let points = 0;
        child.stdout.on('data', (chunk: Buffer) => {
          for (const line of chunk.toString().split('\n').filter(Boolean)) {
            const message = JSON.parse(line) as { failed?: string; point?: unknown };
            if (message.failed) fail(new Error(message.failed));
            if (message.point && ++points === 2) done();
          }
        });
        child.once('exit', () => fail(new Error('the child ended early')));
      });
      const owner = agentOwner(join(dataDir, 'benchlab.db'));
      const pids = (await labExec('client', ['sh', '-c', `cat ${AGENT_PIDS}/${owner}-*.pid`])).stdout.split(/\s+/).filter(Boolean).map(Number);
      assert.equal(pids.length, 1);
      child.kill('SIGKILL');
      const killedAt = Date.now();
      // The bound of the wait is the promise: it ends within 5 s (how soon: npm run bench).
      await until(async () => !(await alive(pids[0]!, 'default')), 'the agent to end', 5000, 200);
      t.diagnostic(`the agent ended ${Date.now() - killedAt} ms after the kill`);
    } finally {
      child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('load engine on the lab: the books', { skip: skip ?? false }, () => {
  const lab = labFor('engine', 18433);

  test('an open-model session of 600 requests over 2 s: every stored line and the summary balance', async () => {
    const started = await lab.ok<LiveRun>('runs.start', {
      clientHostId: lab.clientId,
      serverHostId: lab.serverId,
      profile: { target: lab.target, request: { path: '/hello', timeoutMs: 2000 }, load: { model: 'open', requests: 600, durationS: 2 }, warmupS: 1 },
    });
    const run = await sessionEnd(lab, started.sessionId, 30_000);
    assert.equal(run.status, 'completed', run.message ?? '');
    const [stored] = await lab.ok<Array<{ id: number; summary: RunSummary }>>('runs.list', { sessionId: started.sessionId });
    const books = stored!.summary.books!;
    assert.ok(books.balanced, JSON.stringify(books));
    assert.deepEqual([books.scheduled, books.answered, books.inFlight], [600, 600, 0]);
    const samples = new SamplesRepository(lab.services.db).forRun(stored!.id);
    assert.deepEqual(
      samples.map((sample) => sample.phase),
      ['measure', 'measure', 'drain'],
    );
    let inFlight = 0;
    for (const sample of samples) {
      assert.ok(intervalBalances(summarySecondOf(sample), inFlight), `second ${sample.second} (${sample.phase}) does not balance`);
      inFlight = sample.inFlight!;
    }
    assert.equal(inFlight, 0);
  });
});

describe('load engine when the client link drops', { skip: skip ?? false }, () => {
  let lab: Lab;

  before(async () => {
    lab = await openLab('loadlink', 18432);
  });

  after(async () => {
    await labSetLink('client', 'up', { instance: 'loadlink' });
    await lab?.close();
  });

  test('the agent stops its load within its heartbeat limit; the session fails with the reason', async (t) => {
    const measured = new Promise<void>((done) => {
      const unsubscribe = lab.services.bus.subscribe('runs.points', (batch) => {
        if (!batch.points.some((point) => !point.warmup)) return;
        unsubscribe();
        done();
      });
    });
    const started = await lab.ok<LiveRun>('runs.start', {
      clientHostId: lab.clientId,
      serverHostId: lab.serverId,
      profile: { target: lab.target, request: { path: '/hello' }, load: { model: 'open', rate: 200, durationS: 60, connections: 10 } },
    });
    const [pid] = await until(async () => ((await clientAgentPids(lab, 'loadlink')).length > 0 ? clientAgentPids(lab, 'loadlink') : null), 'the agent', 10_000, 200);
    // The link goes down once the load is under way: its first measured second has come back.
    await within(measured, 'the first measured second', 30_000);
    await labSetLink('client', 'down', { instance: 'loadlink' });
    const pulledAt = Date.now();
    // The bound of the wait is the promise: it ends within its heartbeat limit and 2 s (how soon: npm run bench).
    await until(async () => !(await alive(pid!, 'loadlink')), 'the agent to end', HEARTBEAT_TIMEOUT_MS + 2000, 200);
    const stoppedAfter = Date.now() - pulledAt;
    t.diagnostic(`the agent ended ${stoppedAfter} ms after the link went down`);
    await labSetLink('client', 'up', { instance: 'loadlink' });
    const run = await sessionEnd(lab, started.sessionId, 40_000);
    assert.equal(run.status, 'failed');
    // Benchlab names the lost link itself (tests/lab/link-loss.test.ts), unless the agent's own end line comes back first.
    assert.match(
      run.message ?? '',
      /^(client link lost at \d\d:\d\d:\d\d: no data from the client's agent for [\d.]+ s; what was stored is kept|step 1 \(200 req\/s for 60 s, up to 10 connections\): (the link to lab-client was lost: its agent heard nothing from Benchlab for \d+ s and stopped its load|lost the agent on lab-client: .+))$/,
    );
  });
});
