// Several Benchlab processes on one data dir (the app open while a CLI runs a plan), with real
// SQLite files and real child processes: a start leaves the running sessions of a live process
// alone and marks those of a killed one interrupted; the connect check keeps the agents of a
// session another live process runs and kills those nobody runs any more; a CLI's plan never
// touches the app's last plan.

import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { PlanSpec, planStages, type PlanState } from '../../../app/plans/plan.ts';
import type { LogLine } from '../../../app/contract.ts';
import { createServices, type Services } from '../services.ts';
import { isOwnerAlive, processOwner } from '../store/process-owner.ts';
import { until, within } from '../../../tests/support/until.ts';
import { AGENT_FILE_NAME } from './agent-bundle.ts';
import { agentOwner } from './run-service.ts';
import { agentPidFileName } from './agent-host.ts';
import { RunsRepository } from './runs-repository.ts';
import { isRunning } from '../../../tests/support/processes.ts';

const OWNER_CHILD = resolve(import.meta.dirname, '..', '..', '..', 'tests', 'support', 'session-owner-child.ts');

let dir: string;
const children: ChildProcess[] = [];
const opened: Services[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'benchlab-processes-'));
});

afterEach(async () => {
  for (const services of opened.splice(0)) await services.close();
  for (const child of children.splice(0)) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

function open(transport: 'web' | 'cli' = 'web'): Services {
  const services = createServices({ dataDir: dir, transport, version: 'test' });
  opened.push(services);
  return services;
}

async function close(services: Services): Promise<void> {
  opened.splice(opened.indexOf(services), 1);
  await services.close();
}

/** Another Benchlab process that runs one session (and one run of it) in the data dir until killed. */
async function otherProcess(): Promise<{ child: ChildProcess; sessionId: number; runId: number }> {
  const child = spawn(process.execPath, [OWNER_CHILD, dir], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  const line = await within(
    new Promise<string>((done, fail) => {
      child.stdout!.once('data', (chunk: Buffer) => done(chunk.toString()));
      child.once('exit', () => fail(new Error('the other process ended early')));
    }),
    'the other process to start its session',
    20_000,
  );
  return { child, ...(JSON.parse(line) as { sessionId: number; runId: number }) };
}

async function kill9(child: ChildProcess): Promise<void> {
  const exited = new Promise((done) => child.once('exit', done));
  child.kill('SIGKILL');
  await exited;
}

/** A process whose command line names the agent, as the connect check recognises one. */
function fakeAgent(): ChildProcess {
  const agent = spawn(process.execPath, ['-e', 'setInterval(() => {}, 60000)', AGENT_FILE_NAME], { detached: true, stdio: 'ignore' });
  children.push(agent);
  return agent;
}

test("the owner token: this process's lives; another process's lives until it is killed; a reused pid is not taken for it", async () => {
  assert.ok(isOwnerAlive(processOwner()));
  assert.equal(isOwnerAlive(`${process.pid}:1`), false, 'our pid with another start time is an earlier process');
  assert.equal(isOwnerAlive('not a token'), false);
  const other = await otherProcess();
  const services = open();
  const owner = services.sessions.running().find((session) => session.id === other.sessionId)?.owner ?? '';
  assert.ok(owner.startsWith(`${other.child.pid}:`), `the session is stamped with the other process's token (${owner})`);
  assert.ok(isOwnerAlive(owner));
  assert.equal(isOwnerAlive(`${other.child.pid}:${Number(owner.split(':')[1]) + 1}`), false, 'its pid, started at another time');
  await kill9(other.child);
  assert.equal(isOwnerAlive(owner), false);
});

test("a second Benchlab on the same data dir leaves the first one's running session and run alone", () => {
  const first = open();
  const session = first.sessions.create({ name: 'running in the first', status: 'running' });
  const runId = new RunsRepository(first.db).create({ sessionId: session.id, ordinal: 1, templateId: 'external', variant: '' });
  new RunsRepository(first.db).markStarted(runId);
  for (const transport of ['web', 'cli'] as const) {
    const second = open(transport);
    assert.equal(second.sessions.get(session.id).status, 'running', `a ${transport} start`);
    assert.equal(second.runs.list(session.id)[0]!.status, 'running');
  }
});

test('a live process keeps its session running across other starts; once it is killed, the next start marks it interrupted', async () => {
  const other = await otherProcess();
  const whileAlive = open('cli');
  assert.equal(whileAlive.sessions.get(other.sessionId).status, 'running');
  assert.equal(whileAlive.runs.list(other.sessionId)[0]!.status, 'running');
  await close(whileAlive);

  await kill9(other.child);
  const after = open('cli');
  const session = after.sessions.get(other.sessionId);
  assert.equal(session.status, 'interrupted');
  assert.ok(session.endedAt);
  assert.equal(after.runs.list(other.sessionId)[0]!.status, 'interrupted');
});

test('the connect check keeps the agents of a session another live process runs, and kills those nobody runs', async () => {
  const services = open();
  const other = await otherProcess();
  const ended = services.sessions.create({ name: 'ended long ago', status: 'running' });
  services.sessions.setStatus(ended.id, 'completed', { ended: new Date() });

  const root = process.getuid?.() === 0 ? '/var/lib/benchlab' : join(homedir(), '.benchlab');
  const pidDir = join(root, 'agent', 'pids', hostname().replace(/[^A-Za-z0-9._-]/g, '_'));
  mkdirSync(pidDir, { recursive: true });
  const owner = agentOwner(join(dir, 'benchlab.db'));
  const kept = { agent: fakeAgent(), file: join(pidDir, agentPidFileName(owner, other.sessionId, 'load')) };
  const leftover = { agent: fakeAgent(), file: join(pidDir, agentPidFileName(owner, ended.id, 'load')) };
  writeFileSync(kept.file, `${kept.agent.pid}\n`);
  writeFileSync(leftover.file, `${leftover.agent.pid}\n`);
  try {
    const checked = new Promise<LogLine>((done) =>
      services.bus.subscribe('log', (line) => {
        if (line.source === 'runs' && /an earlier Benchlab left running/.test(line.message)) done(line);
      }),
    );
    services.connections.transportFor(services.hostService.addLocal().id); // "This machine" connects: its check runs
    const line = await within(checked, 'the connect check to stop the leftover agent', 20_000);
    assert.match(line.message, new RegExp(`stopped 1 agent .*\\(pid ${leftover.agent.pid}\\)`));
    await until(() => !isRunning(leftover.agent.pid!), 'the leftover agent to end', 5000);
    assert.ok(isRunning(kept.agent.pid!), "the other process's agent still runs");
    assert.ok(existsSync(kept.file), 'and keeps its pid file');
    assert.equal(existsSync(leftover.file), false);
  } finally {
    rmSync(kept.file, { force: true });
    rmSync(leftover.file, { force: true });
  }
});

test("a CLI's plan neither marks the app's running plan interrupted nor replaces it", async () => {
  const app = open();
  const spec = PlanSpec.parse({
    name: 'In the app',
    clientHostId: 1,
    serverHostId: 1,
    presets: { client: null, server: null },
    targets: [{ templateId: 'node', variant: 'async' }],
    profile: { target: 'http://127.0.0.1:8080', request: { path: '/hello' }, load: { model: 'closed', connections: 4, durationS: 60 } },
  });
  const stages = planStages(spec, { host: () => 'host', preset: (id) => id, template: (id) => id });
  stages[0]!.status = 'running';
  const appPlan: PlanState = { id: 7, name: 'In the app', status: 'running', stages, sessionIds: [], message: null, startedAt: new Date().toISOString(), endedAt: null, estimateS: 60 };
  app.drafts.save('last-plan', appPlan);

  const cli = open('cli');
  assert.equal(cli.plans.current(), null, "the app's plan is not the CLI's");
  // A plan of the CLI's own that fails at its first stage (its host is not connected): it runs, and is the CLI's.
  const hostId = cli.hosts.add({ name: 'never connected', address: '127.0.0.1', port: 22, user: 'bench', auth: 'agent' }).id;
  await cli.plans.start({ ...spec, name: 'In the CLI', clientHostId: hostId, serverHostId: hostId, presets: { client: { presetId: 'load-client', planId: '0000000000000000' }, server: null } });
  const finished = await within(cli.plans.settled(), 'the CLI plan to end', 20_000);
  assert.equal(finished?.name, 'In the CLI');
  assert.equal(finished?.status, 'failed');
  assert.deepEqual(cli.drafts.get('last-plan')?.value, appPlan, "the app's last plan is untouched");
});
