// Faults named as they happen, on the `faults` lab: the client's link pulled mid-run is reported on
// the live run within seconds ("no data from the client since"), the client host is shown
// unresponsive (and recovers when the link is back), and the run ends as "client link lost" with
// what was stored kept and balanced; a server sampler killed mid-run leaves the run going, the
// live run saying the sampler is silent and the server's chart values missing (a gap).
// Each wait is on an event, bounded; the delays are measured and held to bounds that follow from
// the rules (lines once a second, silence after 2 s, the agent's heartbeat limit).

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { HostConnection } from '../../app/hosts/connections.ts';
import { clockTime } from '../../app/common/clock-time.ts';
import { summarySecondOf } from '../../app/runs/run-second.ts';
import { intervalBalances, type RunSummary } from '../../app/runs/run-summary.ts';
import type { LivePoint, LiveRun } from '../../app/runs/runs.ts';
import type { EventName, EventPayload } from '../../app/contract.ts';
import { agentOwner } from '../../main/services/runs/run-service.ts';
import { HEARTBEAT_TIMEOUT_MS } from '../../app/runs/agent-protocol.ts';
import { AGENT_GONE_AFTER_MS } from '../../main/services/runs/silence-watch.ts';
import { SamplesRepository } from '../../main/services/runs/samples-repository.ts';
import { closeDeployedLab, openDeployedLab, type LabBackend } from '../support/lab-backend.ts';
import { labSkipReason } from '../support/lab-hosts.ts';
import { within } from '../support/until.ts';
import { labExec, labSetLink } from './lab.ts';
import { agentPidFileName } from '../../main/services/runs/agent-host.ts';

const skip = labSkipReason();
const INSTANCE = 'faults';
const PORT = 18435;
/** Correctness bounds from the rules, not speed goals: reported after ≤ 1 s + 2 s, ended after ≤ 1 s + AGENT_GONE_AFTER_MS, each with room. */
const REPORTED_WITHIN_MS = 5000;
const ENDED_WITHIN_MS = 1000 + AGENT_GONE_AFTER_MS + 5000;
const CLOCK_TIME = /^\d\d:\d\d:\d\d$/;

interface Seen<T> {
  value: T;
  at: number;
}

/** The next event of `name` that `match` accepts, with when it came: subscribe before the action. */
function nextEvent<E extends EventName>(lab: LabBackend, name: E, match: (payload: EventPayload<E>) => boolean): Promise<Seen<EventPayload<E>>> {
  return new Promise((resolve) => {
    const unsubscribe = lab.services.bus.subscribe(name, (payload) => {
      if (!match(payload)) return;
      unsubscribe();
      resolve({ value: payload, at: Date.now() });
    });
  });
}

function firstMeasuredPoint(lab: LabBackend, sessionId: number): Promise<Seen<EventPayload<'runs.points'>>> {
  return nextEvent(lab, 'runs.points', (batch) => batch.sessionId === sessionId && batch.points.some((point: LivePoint) => !point.warmup));
}

/** A test that failed midway leaves no load running for the next one. */
async function stopIfRunning(lab: LabBackend, sessionId: number): Promise<void> {
  const { run } = await lab.ok<{ run: LiveRun | null }>('runs.live', {});
  if (run?.sessionId === sessionId && !['completed', 'failed', 'cancelled'].includes(run.status)) await lab.call('runs.stop', { sessionId });
}

/** Every stored line of the run balances, carried in-flight count and all, and so does its summary. */
function assertStoredBooks(lab: LabBackend, run: { id: number; summary: RunSummary | null }): number {
  const samples = new SamplesRepository(lab.services.db).forRun(run.id);
  assert.ok(samples.length > 0, 'seconds were stored before the fault');
  let inFlight = 0;
  for (const sample of samples) {
    assert.ok(intervalBalances(summarySecondOf(sample), inFlight), `stored second ${sample.second} (${sample.phase}) does not balance`);
    inFlight = sample.inFlight ?? 0;
  }
  assert.ok(run.summary?.books?.balanced, `the run's books: ${JSON.stringify(run.summary?.books)}`);
  return samples.length;
}

describe('faults named as they happen', { skip: skip ?? false }, () => {
  let lab: LabBackend;
  let target: string;

  before(async () => {
    ({ lab, target } = await openDeployedLab(INSTANCE, 'benchlab-link-loss-', { templateId: 'node', port: PORT }));
  });
  after(async () => {
    await labSetLink('client', 'up', { instance: INSTANCE });
    await closeDeployedLab(lab);
  });

  test('a pulled client link: reported at once, the host unresponsive, the run ended as client link lost, what was stored kept', async (t) => {
    const started = await lab.ok<LiveRun>('runs.start', {
      clientHostId: lab.clientId,
      serverHostId: lab.serverId,
      profile: { target, request: { path: '/hello' }, load: { model: 'open', rate: 200, durationS: 60, connections: 10 } },
    });
    const { sessionId } = started;
    t.after(() => stopIfRunning(lab, sessionId));
    assert.deepEqual(started.silentSince, { client: null, server: null });
    await within(firstMeasuredPoint(lab, sessionId), 'the first measured second', 30_000);

    const reported = nextEvent(lab, 'runs.state', (run) => run.sessionId === sessionId && run.silentSince.client !== null);
    const unresponsive = nextEvent(lab, 'hosts.connection', (connection) => connection.hostId === lab.clientId && connection.unresponsiveSince !== null);
    const ended = nextEvent(lab, 'runs.state', (run) => run.sessionId === sessionId && ['completed', 'failed', 'cancelled'].includes(run.status));
    await labSetLink('client', 'down', { instance: INSTANCE });
    const pulledAt = Date.now();

    const silence = await within(reported, 'the live run to report no data from the client', 20_000);
    const reportedAfter = silence.at - pulledAt;
    t.diagnostic(`no data from the client reported ${reportedAfter} ms after the link went down`);
    assert.ok(reportedAfter < REPORTED_WITHIN_MS, `reported after ${reportedAfter} ms`);
    assert.equal(silence.value.status, 'running', 'the silence is reported while the run is still on');
    const silentSince = silence.value.silentSince.client!;
    assert.ok(Date.parse(silentSince) <= silence.at && pulledAt - Date.parse(silentSince) < 2000, `silent since ${silentSince}: the last line before the link went down`);
    const live = await lab.ok<{ run: LiveRun }>('runs.live', {});
    assert.equal(live.run.silentSince.client, silentSince, 'runs.live says it too');

    const host = await within(unresponsive, 'the client host to be shown unresponsive', 20_000);
    t.diagnostic(`the client host shown unresponsive ${host.at - pulledAt} ms after the link went down`);
    assert.equal(host.value.state, 'connected', 'unresponsive is shown on a connection Benchlab keeps');

    const end = await within(ended, 'the run to end', ENDED_WITHIN_MS + 10_000);
    const endedAfter = end.at - pulledAt;
    t.diagnostic(`the run ended ${endedAfter} ms after the link went down`);
    assert.ok(endedAfter < ENDED_WITHIN_MS, `ended after ${endedAfter} ms`);
    assert.equal(end.value.status, 'failed');
    const message = end.value.message ?? '';
    const [, at, seconds] = /^client link lost at (\S+): no data from the client's agent for (\d+(?:\.\d)?) s; what was stored is kept$/.exec(message) ?? [];
    assert.ok(at && seconds, message);
    assert.match(at, CLOCK_TIME);
    assert.equal(at, clockTime(silentSince), 'the time the link was lost is the last line’s');
    assert.ok(Number(seconds) >= HEARTBEAT_TIMEOUT_MS / 1000, `${seconds} s of silence: the agent's own heartbeat limit has passed`);
    assert.equal(end.value.steps[0]!.status, 'failed');

    const [stored] = await lab.ok<Array<{ id: number; status: string; summary: RunSummary | null; sampleCount: number }>>('runs.list', { sessionId });
    const storedLines = assertStoredBooks(lab, stored!);
    assert.equal(stored!.sampleCount, storedLines, 'no drain row: the step was cut');
    const session = await lab.ok<{ status: string; endedAt: string | null }>('sessions.get', { id: sessionId });
    assert.equal(session.status, 'failed');

    // While the client does not answer, a new run on it is refused, and nothing is stored for it.
    const sessionsBefore = await lab.ok<unknown[]>('sessions.list', {});
    const refused = await lab.call('runs.start', { clientHostId: lab.clientId, profile: { target, request: { path: '/hello' }, load: { model: 'closed', connections: 1, durationS: 1 } } });
    assert.ok(!refused.ok && refused.error.code === 'unavailable', JSON.stringify(refused));
    assert.match(refused.error.message, /^lab-client has not answered since \d\d:\d\d:\d\d: wait until it answers again, or reconnect it$/);
    assert.deepEqual(await lab.ok<unknown[]>('sessions.list', {}), sessionsBefore);

    const recovered = nextEvent(lab, 'hosts.connection', (connection) => connection.hostId === lab.clientId && connection.state === 'connected' && connection.unresponsiveSince === null);
    await labSetLink('client', 'up', { instance: INSTANCE });
    const back = await within(recovered, 'the client host to answer again', 60_000);
    t.diagnostic(`the client host answered again ${back.at - pulledAt} ms after the link went down`);
    const connections = await lab.ok<HostConnection[]>('hosts.connections', {});
    assert.equal(connections.find((connection) => connection.hostId === lab.clientId)?.unresponsiveSince, null);
  });

  test('a killed server sampler: the run goes on, the live run says the sampler is silent, the server charts have a gap', async (t) => {
    const started = await lab.ok<LiveRun>('runs.start', {
      clientHostId: lab.clientId,
      serverHostId: lab.serverId,
      profile: { target, request: { path: '/hello' }, load: { model: 'closed', connections: 4, durationS: 10 } },
    });
    const { sessionId } = started;
    t.after(() => stopIfRunning(lab, sessionId));
    // The sampler's first reading comes a second after it starts, which on a busy machine may be
    // after the load's first second: wait for the first measured second that carries it.
    const charted = nextEvent(lab, 'runs.points', (batch) => batch.sessionId === sessionId && batch.points.some((point: LivePoint) => !point.warmup && point.serverCpu !== null));
    const first = await within(charted, 'a measured second with the server charted while its sampler runs', 30_000);
    assert.ok(first.value.points.some((point) => !point.warmup && point.serverCpu !== null), 'the server is charted while its sampler runs');

    const reported = nextEvent(lab, 'runs.state', (run) => run.sessionId === sessionId && run.silentSince.server !== null);
    const gap = nextEvent(lab, 'runs.points', (batch) => batch.sessionId === sessionId && batch.points.some((point: LivePoint) => !point.warmup && point.serverCpu === null && point.serverRssBytes === null));
    const ended = nextEvent(lab, 'runs.state', (run) => run.sessionId === sessionId && ['completed', 'failed', 'cancelled'].includes(run.status));
    const owner = agentOwner(lab.services.info().databaseFile);
    const pidFile = `/var/lib/benchlab/agent/pids/bl-server/${agentPidFileName(owner, sessionId, 'sampler')}`;
    const killed = await labExec('server', ['sh', '-c', `kill -KILL "$(cat ${pidFile})"`], { instance: INSTANCE });
    assert.equal(killed.code, 0, killed.stderr);
    const killedAt = Date.now();

    const silence = await within(reported, 'the live run to report the server sampler silent', 20_000);
    t.diagnostic(`the silent server sampler reported ${silence.at - killedAt} ms after it was killed`);
    assert.ok(silence.at - killedAt < REPORTED_WITHIN_MS, `reported after ${silence.at - killedAt} ms`);
    assert.equal(silence.value.status, 'running', 'the run goes on');
    assert.equal(silence.value.silentSince.client, null, 'the client still sends');
    await within(gap, 'a point without server values (a gap, not a flat line)', 20_000);

    const end = await within(ended, 'the run to end', 40_000);
    assert.equal(end.value.status, 'completed', end.value.message ?? '');
    const [stored] = await lab.ok<Array<{ id: number; summary: RunSummary | null }>>('runs.list', { sessionId });
    assertStoredBooks(lab, stored!);
    const samples = new SamplesRepository(lab.services.db).forRun(stored!.id);
    assert.equal(samples.at(-1)!.serverMetrics, null, 'a second after the sampler fell silent stores no server values');
    const connections = await lab.ok<HostConnection[]>('hosts.connections', {});
    assert.equal(connections.find((connection) => connection.hostId === lab.serverId)?.unresponsiveSince, null, 'the server host itself answers');
  });
});
