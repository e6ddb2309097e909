// One run driven from two load clients, on the `scaleout` lab (bl-client, bl-client2 and bl-server):
// a real session through the run service against a counting server on bl-server. It checks that the
// run's percentiles are those of every request recorded in one place (each client's stored
// histograms decoded and added by hand), that the server answered exactly the merged count, that
// requests/s add up over the clients, that the books balance merged and per client, that every
// client's host facts are stored by name and the start lead recorded from their setup; and that a
// client whose agent is killed mid-run is named, its step marked degraded, the other client
// stopped, and no agent left running on any host.

import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createLatencyHistogram, decodeHistogram, latencyStats, type LatencyHistogram } from '../../app/common/hdr.ts';
import type { SessionHostFacts } from '../../app/hosts/host-facts.ts';
import { CLOCK_UNCERTAINTY_LIMIT_MS } from '../../app/runs/clock-offset.ts';
import { mergedBySecond } from '../../app/runs/merge-seconds.ts';
import type { RunSecond } from '../../app/runs/run-second.ts';
import type { RunBooks } from '../../app/runs/run-summary.ts';
import { coordinatedStartLeadMs } from '../../app/runs/start-lead.ts';
import type { LivePoint, LiveRun, StoredRun } from '../../app/runs/runs.ts';
import { summarizeRun, summaryRulesOf } from '../../app/runs/summarize-run.ts';
import { SamplesRepository } from '../../main/services/runs/samples-repository.ts';
import { labSkipReason } from '../support/lab-hosts.ts';
import { labAgentProcesses, openMultiClientLab, type MultiClientLab } from '../support/lab-clients.ts';
import { until, within } from '../support/until.ts';
import { labExec, labStatus } from './lab.ts';

const skip = labSkipReason();
const INSTANCE = 'scaleout';
const PORT = 18497;
const COUNTING_SERVER = resolve(import.meta.dirname, '../soak/counting-server.ts');

interface CountingServer {
  url: string;
  /** Requests answered so far, as of its latest report (every 50 ms). */
  answered(): number;
  /** Resolves once it has reported on a moment after `at` (epoch ms; the lab hosts share this clock). */
  reportedAfter(at: number): Promise<void>;
  close(): Promise<void>;
}

/** The soak's counting server, run inside bl-server through its sshd's namespaces. */
async function startCountingServer(): Promise<CountingServer> {
  const status = await labStatus({ instance: INSTANCE });
  const { sshdPid, address } = status.hosts.server;
  if (sshdPid === null) throw new Error('bl-server of the scaleout lab is not running');
  const child: ChildProcess = spawn('nsenter', ['--target', String(sshdPid), '--net', '--mount', '--uts', '--', process.execPath, COUNTING_SERVER, address, String(PORT)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let answered = 0;
  let reportedAt = 0;
  let listening = false;
  let buffer = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    const lines = (buffer + chunk.toString()).split('\n');
    buffer = lines.pop()!;
    for (const line of lines) {
      const report = JSON.parse(line) as { listening?: true; answered?: number; now: number };
      if (report.listening) listening = true;
      if (report.answered !== undefined) answered = report.answered;
      reportedAt = report.now;
    }
  });
  await until(() => listening, 'the counting server to listen', 10_000);
  return {
    url: `http://${address}:${PORT}`,
    answered: () => answered,
    reportedAfter: (at) => until(() => reportedAt > at, 'the counting server to report', 5000, 20).then(() => undefined),
    close: async () => {
      child.kill('SIGKILL');
      await until(() => child.exitCode !== null || child.signalCode !== null, 'the counting server to end', 5000, 20);
    },
  };
}

/** Every histogram of these seconds, decoded and added into one: all their requests recorded in one place. */
function allInOne(seconds: readonly RunSecond[]): LatencyHistogram {
  const all = createLatencyHistogram();
  for (const second of seconds) if (second.histogram) all.add(decodeHistogram(second.histogram));
  return all;
}

function assertIdentity(books: RunBooks | null | undefined, what: string): void {
  assert.ok(books, `${what}: no books`);
  assert.ok(books.balanced, `${what}: ${JSON.stringify(books)}`);
  assert.equal(books.scheduled, books.answered + books.errors + books.timeouts + books.notSent + books.inFlight, `${what}: scheduled = answered + errors + timeouts + not sent + in flight`);
}

describe('one run from two load clients', { skip: skip ?? false }, () => {
  let lab: MultiClientLab;
  let server: CountingServer;

  before(async () => {
    lab = await openMultiClientLab(INSTANCE, 'benchlab-scale-out-', 2);
    server = await startCountingServer();
  });

  after(async () => {
    await server?.close();
    await lab?.close();
  });

  function startRun(profile: Record<string, unknown>): Promise<LiveRun> {
    return lab.ok<LiveRun>('runs.start', {
      clients: lab.clientIds.map((hostId) => ({ hostId, weight: 1 })),
      serverHostId: lab.serverId,
      profile: { target: server.url, request: { path: '/' }, warmupS: 0, ...profile },
    });
  }

  test('merged exactly: one histogram of every request, the server’s count, requests/s added, books balanced merged and per client', async (t) => {
    const answeredBefore = server.answered();
    const profile = { load: { model: 'closed', connections: 4, durationS: 3 } };
    const started = await startRun(profile);
    const live = await lab.services.runs.finished(started.sessionId);
    assert.equal(live.status, 'completed', live.message ?? '');
    assert.deepEqual(live.clients.map((client) => [client.name, client.status, client.connections]), [
      ['lab-client', 'done', 2],
      ['lab-client2', 'done', 2],
    ]);
    for (const client of live.clients) {
      // The lab hosts share this machine's clock: the measured offset is zero within its bound.
      assert.ok(client.clock, `${client.name}: its clock offset was measured`);
      t.diagnostic(`${client.name}: clock offset ${client.clock.offsetMs.toFixed(3)} ± ${client.clock.uncertaintyMs.toFixed(3)} ms`);
      assert.ok(client.clock.uncertaintyMs <= CLOCK_UNCERTAINTY_LIMIT_MS, `${client.name}: ± ${client.clock.uncertaintyMs} ms`);
      assert.ok(Math.abs(client.clock.offsetMs) <= client.clock.uncertaintyMs + 1, `${client.name}: offset ${client.clock.offsetMs} ms`);
      assert.ok(client.clock.readyMs !== undefined && client.clock.readyMs > 0, `${client.name}: its setup time was measured`);
      t.diagnostic(`${client.name}: agent ready after ${client.clock.readyMs} ms`);
    }
    // The start's lead came from the clients' measured setup and is recorded with the session.
    const { startLeadMs } = lab.services.sessions.get(started.sessionId).config;
    assert.equal(startLeadMs, coordinatedStartLeadMs(live.clients.map((client) => client.clock?.readyMs)));
    // Every client's host facts were stored with the session, each by name; on one kernel the clients are named together.
    const facts = (await lab.ok<SessionHostFacts | null>('runs.hostFacts', { sessionId: started.sessionId }))!;
    assert.deepEqual(facts.clients.map((client) => client.hostName), ['lab-client', 'lab-client2']);
    assert.ok(
      facts.findings.some((finding) => finding.kind === 'same-machine' && finding.message.includes('clients lab-client, lab-client2')),
      facts.findings.map((finding) => finding.message).join('\n'),
    );

    const [stored] = await lab.ok<StoredRun[]>('runs.list', { sessionId: started.sessionId });
    const summary = stored!.summary!;
    const seconds = new SamplesRepository(lab.services.db).forRun(stored!.id);
    const byClient = [0, 1].map((index) => seconds.filter((second) => second.clientIndex === index));
    assert.deepEqual(
      [...new Set(seconds.map((second) => second.clientIndex))].sort(),
      [0, 1],
      'each client’s seconds are stored apart, under its index',
    );
    for (const [index, own] of byClient.entries()) assert.ok(own.filter((second) => second.phase === 'measure').length >= 3, `client ${index}: its measured seconds`);

    // (a) The run's figures are those of one histogram holding every request of both clients.
    const all = allInOne(seconds);
    assert.equal(all.totalCount, summary.requests, 'every answered request is in the merged histogram once');
    const direct = latencyStats(all);
    assert.deepEqual(
      [summary.p50Us, summary.p75Us, summary.p90Us, summary.p99Us, summary.p999Us, summary.maxUs],
      [direct.p50Us, direct.p75Us, direct.p90Us, direct.p99Us, direct.p999Us, direct.maxUs],
      'the stored percentiles are read from the added histogram, never averaged',
    );
    const merged = mergedBySecond(seconds);
    assert.deepEqual(latencyStats(allInOne(merged)), direct, 'the merged seconds every reader uses hold the same histogram');
    t.diagnostic(`${summary.requests} requests: p50 ${summary.p50Us} µs, p99 ${summary.p99Us} µs`);

    assert.equal(summary.failed, 0);
    await server.reportedAfter(Date.now());
    assert.equal(server.answered() - answeredBefore, summary.requests, 'the server answered exactly the merged count');

    // (b) Requests/s add up: per second and over the run.
    for (const second of merged) {
      const parts = seconds.filter((part) => part.phase === second.phase && part.second === second.second);
      assert.equal(second.requests, parts.reduce((sum, part) => sum + part.requests, 0), `second ${second.second} (${second.phase})`);
    }
    const rules = summaryRulesOf(profile, stored!.step);
    const perClient = byClient.map((own) => summarizeRun(own, rules).summary!);
    const added = perClient[0]!.requestsPerSecond + perClient[1]!.requestsPerSecond;
    t.diagnostic(`requests/s: ${perClient.map((own) => own.requestsPerSecond.toFixed(1)).join(' + ')} = ${summary.requestsPerSecond.toFixed(1)}`);
    // Exact when the clients' windows last alike; a cut-short last second of one client may differ by its missing milliseconds.
    const windowsMs = byClient.map((own) => own.filter((second) => second.phase === 'measure').reduce((sum, second) => sum + (second.clientMetrics?.durationMs ?? 1000), 0));
    const slack = (Math.max(...windowsMs) - Math.min(...windowsMs)) / Math.min(...windowsMs) + 1e-9;
    assert.ok(Math.abs(summary.requestsPerSecond - added) <= slack * added, `merged ${summary.requestsPerSecond} = ${added} (windows ${windowsMs.join(', ')} ms)`);
    assert.equal(summary.requests, perClient[0]!.requests + perClient[1]!.requests);

    // (c) The accounting identity, merged and per client.
    assertIdentity(summary.books, 'merged');
    for (const [index, own] of perClient.entries()) assertIdentity(own.books, `client ${index}`);
    assert.equal(summary.books!.scheduled, perClient[0]!.books!.scheduled + perClient[1]!.books!.scheduled);
  });

  test('a client killed mid-run is named, the step degraded, the other client stopped, no agent left on any host', async (t) => {
    const started = await startRun({ load: { model: 'closed', connections: 4, durationS: 60 } });
    const { sessionId } = started;
    t.after(async () => {
      const { run } = await lab.ok<{ run: LiveRun | null }>('runs.live', {});
      if (run?.sessionId === sessionId && !['completed', 'failed', 'cancelled'].includes(run.status)) await lab.call('runs.stop', { sessionId });
    });
    const measured = new Promise<void>((done) => {
      const unsubscribe = lab.services.bus.subscribe('runs.points', (batch) => {
        if (batch.sessionId !== sessionId || !batch.points.some((point: LivePoint) => !point.warmup)) return;
        unsubscribe();
        done();
      });
    });
    await within(measured, 'the first measured second', 30_000);

    // The agent on bl-client2, found in that host's namespace and killed from inside it.
    const agents = await until(
      async () => {
        const lines = (await labAgentProcesses(INSTANCE)).filter((line) => line.startsWith('bl-client2:') && line.includes('benchlab-agent'));
        return lines.length > 0 ? lines : null;
      },
      'the load agent on bl-client2',
      10_000,
    );
    const pid = Number(agents[0]!.split(' ')[1]);
    const killed = await labExec('client2', ['kill', '-9', String(pid)], { instance: INSTANCE });
    assert.equal(killed.code, 0, killed.stderr);
    const killedAt = Date.now();

    const live = await within(lab.services.runs.finished(sessionId), 'the run to end after the kill', 30_000);
    t.diagnostic(`the run ended ${Date.now() - killedAt} ms after the kill: ${live.status}, ${live.message ?? ''}`);
    const lost = live.clients[1]!;
    assert.equal(lost.name, 'lab-client2');
    assert.ok(['failed', 'lost'].includes(lost.status), `client2 is ${lost.status}`);
    assert.ok(lost.problem, 'client2 says what happened');
    assert.ok(['done', 'failed', 'lost'].includes(live.clients[0]!.status), `client1 stopped: ${live.clients[0]!.status}`);

    const step = live.steps[0]!;
    assert.ok(step.degraded, 'the step is marked degraded');
    assert.equal(step.degraded.clientIndex, 1);
    assert.equal(step.degraded.hostName, 'lab-client2');
    t.diagnostic(`degraded at ${step.degraded.atS} s: ${step.degraded.message}, ${step.degraded.lostSeconds} s lost`);
    const [stored] = await lab.ok<StoredRun[]>('runs.list', { sessionId });
    assert.equal((stored!.step.degraded as { hostName?: string } | undefined)?.hostName, 'lab-client2', 'the stored step says so too');

    const left = await until(async () => ((await labAgentProcesses(INSTANCE)).length === 0 ? 'none' : null), 'no agent left on any lab host', 15_000).catch(async () =>
      (await labAgentProcesses(INSTANCE)).join('; '),
    );
    assert.equal(left, 'none', 'no agent or engine process is left on any host');
  });
});
