// The run service driving one session from two load clients, against a real local HTTP server and a
// real SQLite file: both "clients" are this machine (their transports the local one, so real agents
// run), with a clock offset given for the second. Each client's seconds are stored under its index,
// with its time corrected to Benchlab's clock, and charted merged with a per-client breakdown; a
// client that dies mid-step is named, its step marked degraded (live and stored), the other stopped
// and nothing left running; a client whose link drops, or whose agent fails to start, fails the
// session the same way.

import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parseAgentCommand } from '../../../app/runs/agent-protocol.ts';
import { LoadProfile } from '../../../app/runs/load-profile.ts';
import type { ClockOffset } from '../../../app/runs/clock-offset.ts';
import type { LivePoint, LiveRun } from '../../../app/runs/runs.ts';
import { startTestServer, type TestServer } from '../../../agent/agent-harness.ts';
import { until, within } from '../../../tests/support/until.ts';
import { LocalTransport } from '../hosts/local-transport.ts';
import type { HostProcess, HostTransport, StartOptions } from '../hosts/host-transport.ts';
import { createServices, type Services } from '../services.ts';
import { agentOwner, RunService } from './run-service.ts';
import { agentPidFileName } from './agent-host.ts';
import { RunsRepository } from './runs-repository.ts';
import { SamplesRepository } from './samples-repository.ts';
import { isRunning } from '../../../tests/support/processes.ts';

/** The second client's clock, as if it ran this far ahead of Benchlab's, known only this well (over the limit). */
const SECOND_CLIENT_OFFSET_MS = 1000;
const SECOND_CLIENT_UNCERTAINTY_MS = 7;
/** The second client's measured setup: past the floor's worth, so the start lead grows with it. */
const SECOND_CLIENT_READY_MS = 900;

/**
 * This machine's transport, whose load agents can be made to fail at their start line, and whose
 * link can be cut: then nothing passes either way and a channel's end is not seen, as over a dead
 * SSH connection.
 */
class LocalClient extends LocalTransport {
  failLoadStart = false;
  linkCut = false;
  override async start(command: string, options: StartOptions): Promise<HostProcess> {
    const process = await super.start(command, { ...options, onStdout: (chunk) => this.linkCut || options.onStdout(chunk) });
    return {
      exited: new Promise((resolve) => void process.exited.then((exit) => this.linkCut || resolve(exit))),
      end: () => process.end(),
      kill: () => process.kill(),
      write: (data: string) => {
        if (this.linkCut) return;
        const command = parseAgentCommand(data.trim());
        // The agent dies before its hello: as an agent that cannot start on its host.
        if (this.failLoadStart && command.ok && command.value.type === 'start' && command.value.config.role === 'load') return process.kill();
        process.write(data);
      },
    };
  }
}

describe('a session with two load clients', () => {
  let dir: string;
  let services: Services;
  let runs: RunService;
  let server: TestServer;
  const first = new LocalClient();
  const second = new LocalClient();
  const hostIds: number[] = [];
  const points: LivePoint[] = [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'benchlab-clients-test-'));
    services = createServices({ dataDir: dir, transport: 'cli', version: 'test' });
    server = await startTestServer();
    for (const name of ['client-a', 'client-b']) hostIds.push(services.hosts.add({ name, address: '127.0.0.1', port: 22, user: 'bench', auth: 'agent' }).id);
    const transports = new Map<number, HostTransport>([
      [hostIds[0]!, first],
      [hostIds[1]!, second],
    ]);
    runs = new RunService({
      bus: services.bus,
      log: services.log,
      hosts: services.hosts,
      connections: {
        transportFor: (hostId) => transports.get(hostId)!,
        // A cut link's host does not answer.
        state: (hostId) => ({ hostId, state: 'connected', message: null, since: new Date().toISOString(), unresponsiveSince: transports.get(hostId) === second && second.linkCut ? new Date().toISOString() : null }),
        suspect: () => undefined,
        heard: () => undefined,
      },
      sessions: services.sessions,
      runs: new RunsRepository(services.db),
      samples: new SamplesRepository(services.db),
      portableNode: services.templates.portableNodeCache,
      databaseFile: join(dir, 'benchlab.db'),
      connectChecks: { register: () => undefined, settled: async () => undefined },
      measureClock: async (transport): Promise<ClockOffset> =>
        transport === second
          ? { offsetMs: SECOND_CLIENT_OFFSET_MS, rttMs: 14, uncertaintyMs: SECOND_CLIENT_UNCERTAINTY_MS, probes: 8, readyMs: SECOND_CLIENT_READY_MS }
          : { offsetMs: 0, rttMs: 0.2, uncertaintyMs: 0.1, probes: 8, readyMs: 150 },
    });
    services.bus.subscribe('runs.points', (batch) => {
      points.push(...batch.points);
      runs.ack(batch.sessionId, batch.seq);
    });
  });

  after(async () => {
    await runs.stopAll();
    runs.closeAll();
    await services.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const profile = (durationS: number, connections = 4) =>
    LoadProfile.parse({ target: `http://127.0.0.1:${server.port}`, request: { path: '/hello' }, load: { model: 'closed', connections, durationS }, warmupS: 0 });

  const clients = () => [
    { hostId: hostIds[0]!, weight: 1 },
    { hostId: hostIds[1]!, weight: 3 },
  ];

  /** The second client's agent of a session, from this data dir's pid file (other tests' agents may share the folder). */
  const secondAgentPid = (sessionId: number): number => {
    const pidDir = join(process.getuid?.() === 0 ? '/var/lib/benchlab' : join(homedir(), '.benchlab'), 'agent', 'pids');
    const name = agentPidFileName(agentOwner(join(dir, 'benchlab.db')), sessionId, 'load', 1);
    const pidFile = readdirSync(pidDir, { recursive: true, encoding: 'utf8' }).find((path) => basename(path) === name);
    assert.ok(pidFile, 'the second client’s agent has its own pid file');
    return Number(readFileSync(join(pidDir, pidFile), 'utf8').trim());
  };

  const finished = (sessionId: number): Promise<LiveRun> => within(runs.finished(sessionId), `session ${sessionId} to end`, 30_000);

  test('splits the load by weight, stores each client’s seconds under its index on Benchlab’s clock, and charts them merged', async () => {
    points.length = 0;
    const started = await runs.start({ clients: clients(), profile: profile(3) });
    assert.deepEqual(
      started.clients.map((client) => [client.name, client.weight, client.connections, client.status]),
      [
        ['client-a', 1, 1, 'starting'],
        ['client-b', 3, 3, 'starting'],
      ],
    );
    const run = await finished(started.sessionId);
    assert.equal(run.status, 'completed', run.message ?? '');
    assert.equal(run.message, "the clock of client-b is known only to ±7.0 ms (over 5 ms): its seconds may not line up with the other clients'", 'a clock not bounded well enough is reported');
    assert.deepEqual(
      run.clients.map((client) => [client.status, client.clock?.offsetMs]),
      [
        ['done', 0],
        ['done', SECOND_CLIENT_OFFSET_MS],
      ],
    );
    assert.equal(run.steps[0]!.degraded, null);
    assert.deepEqual(
      run.steps[0]!.clientVerdicts.map((verdict) => verdict.clientIndex),
      [0, 1],
    );

    const stored = runs.list(started.sessionId)[0]!;
    const seconds = new SamplesRepository(services.db).forRun(stored.id);
    const byClient = [0, 1].map((index) => seconds.filter((second) => second.clientIndex === index));
    for (const own of byClient) assert.deepEqual(own.map((second) => [second.phase, second.second]), [['measure', 0], ['measure', 1], ['measure', 2], ['drain', 3]]);
    assert.equal(stored.summary!.requests, seconds.reduce((sum, second) => sum + second.requests, 0), 'the summary counts both clients’ requests');
    // Started together: the second client waited for its own clock to reach the instant, and its
    // seconds' times, read on that clock, are stored back on Benchlab's.
    for (let index = 0; index < 3; index++) {
      const skewMs = Math.abs(byClient[1]![index]!.clientMetrics!.at! - byClient[0]![index]!.clientMetrics!.at!);
      assert.ok(skewMs < SECOND_CLIENT_OFFSET_MS / 2, `second ${index}: the clients' seconds end together on Benchlab's clock (${skewMs} ms apart)`);
    }

    const session = services.sessions.get(started.sessionId);
    assert.deepEqual(
      (session.config.clients as Array<{ hostName: string; weight: number }>).map((client) => [client.hostName, client.weight]),
      [
        ['client-a', 1],
        ['client-b', 3],
      ],
    );
    assert.equal(session.config.clientHost, 'client-a');
    // The lead grew with the slower client's measured setup (2 × 900 ms + 500 ms), recorded beside the offsets.
    assert.equal(session.config.startLeadMs, 2300);

    const measured = points.filter((point) => point.sessionId === started.sessionId && !point.warmup && !point.drain);
    assert.equal(measured.length, 3, 'one merged point per second');
    assert.equal(points.filter((point) => point.sessionId === started.sessionId && point.drain).length, 1, 'one drain point, the clients’ drains merged');
    for (const [index, point] of measured.entries()) {
      const parts = byClient.map((own) => own[index]!);
      assert.deepEqual(
        point.clients?.map((client) => client.clientIndex),
        [0, 1],
      );
      const requests = parts.reduce((sum, part) => sum + part.requests, 0);
      const durationMs = Math.max(...parts.map((part) => part.clientMetrics!.durationMs!));
      assert.equal(point.rps, (requests * 1000) / durationMs, 'the merged point adds both clients’ requests');
    }
  });

  test('a client that dies mid-step is named, its step degraded (live and stored), the other stopped and nothing left running', async () => {
    points.length = 0;
    const started = await runs.start({ clients: clients(), profile: profile(30) });
    await until(() => points.some((point) => point.sessionId === started.sessionId && !point.warmup), 'a merged measured point', 20_000);
    let run: LiveRun;
    try {
      process.kill(-secondAgentPid(started.sessionId), 'SIGKILL');
      run = await finished(started.sessionId);
    } finally {
      await runs.stop(started.sessionId).catch(() => undefined);
    }
    assert.equal(run.status, 'failed');
    assert.match(run.message ?? '', /^step 1 \(c=4, 30 s\): lost the agent on client-b: .*; the other clients were stopped$/);
    const degraded = run.steps[0]!.degraded!;
    assert.deepEqual([degraded.clientIndex, degraded.hostName], [1, 'client-b']);
    assert.ok(degraded.lostSeconds > 0 && degraded.lostSeconds < 30, `what was lost: ${degraded.lostSeconds} s of 30`);
    assert.ok(degraded.atS > 0);
    assert.equal(run.steps[0]!.status, 'failed');
    assert.deepEqual(
      run.clients.map((client) => client.status),
      ['done', 'lost'],
    );
    assert.equal(run.clients[1]!.problem?.message, degraded.message);
    assert.deepEqual(runs.list(started.sessionId)[0]!.step.degraded, degraded, 'the run’s step keeps what was lost');
    await until(async () => (await server.openConnections()) === 0, 'the other client’s connections to close', 5000);
  });

  test('a client whose link drops is named once its agent is gone by its own rule; its step degraded, the other stopped', async () => {
    points.length = 0;
    const started = await runs.start({ clients: clients(), profile: profile(30) });
    let run: LiveRun;
    try {
      await until(() => points.some((point) => point.sessionId === started.sessionId && !point.warmup), 'a merged measured point', 20_000);
      const pid = secondAgentPid(started.sessionId);
      second.linkCut = true;
      run = await finished(started.sessionId);
      await until(() => !isRunning(pid), 'the cut-off agent to be gone', 5000);
    } finally {
      second.linkCut = false;
      await runs.stop(started.sessionId).catch(() => undefined);
    }
    assert.equal(run.status, 'failed');
    assert.match(run.message ?? '', /^client link lost at \d\d:\d\d:\d\d: no data from the agent on client-b for \d+(\.\d)? s; what was stored is kept; the other clients were stopped$/);
    assert.deepEqual([run.steps[0]!.degraded?.clientIndex, run.steps[0]!.degraded?.hostName], [1, 'client-b']);
    assert.deepEqual(
      run.clients.map((client) => client.status),
      ['done', 'lost'],
    );
    await until(async () => (await server.openConnections()) === 0, 'no connection left open by either client', 5000);
  });

  test('a client whose agent fails to start fails the session by name; the one that started is stopped', async () => {
    second.failLoadStart = true;
    try {
      const started = await runs.start({ clients: clients(), profile: profile(30) });
      const run = await finished(started.sessionId);
      assert.equal(run.status, 'failed');
      assert.match(run.message ?? '', /^step 1 \(c=4, 30 s\): the agent on client-b failed: the load agent did not start.*; the other clients were stopped$/);
      assert.deepEqual(
        run.clients.map((client) => client.status),
        ['done', 'failed'],
      );
      assert.equal(run.steps[0]!.degraded?.hostName, 'client-b');
      await until(async () => (await server.openConnections()) === 0, 'the first client’s connections to close', 5000);
    } finally {
      second.failLoadStart = false;
    }
  });

  test('clients are refused when none, both forms, or a repeated host is given, before anything starts', async () => {
    const refusal = (args: Parameters<RunService['start']>[0]) =>
      runs.start(args).then(
        () => 'started',
        (error: Error) => error.message,
      );
    const sessionsBefore = services.sessions.list().length;
    assert.equal(await refusal({ profile: profile(1) }), 'clients: give the client host that sends the load');
    assert.equal(await refusal({ clientHostId: hostIds[0]!, clients: clients(), profile: profile(1) }), 'clients: give either one client host (clientHostId) or several (clients), not both');
    assert.equal(await refusal({ clients: [{ hostId: hostIds[0]! }, { hostId: hostIds[0]! }], profile: profile(1) }), 'clients: client-a is listed twice: list each client host once');
    assert.equal(await refusal({ clients: clients(), profile: profile(1, 1) }), 'profile: step 1 (c=1, 1 s): 1 connection cannot be split over 2 clients: give at least one connection per client');
    assert.equal(services.sessions.list().length, sessionsBefore, 'no session was stored');
  });
});
