// The run service on "This machine" against a real local HTTP server and a real SQLite file:
// a session with a sweep stores every measured second and a summary per step; Stop halts the
// load; bad profiles and an unreachable target are refused with clear messages; the point
// stream holds points the UI has not acknowledged.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { LivePoints, LiveRun } from '../../../app/runs/runs.ts';
import type { RunSummary } from '../../../app/runs/run-summary.ts';
import { createDispatcher, type Dispatcher } from '../../api/dispatch.ts';
import { createHandlers } from '../../api/handlers.ts';
import { startTestServer, type TestServer } from '../../../agent/agent-harness.ts';
import { createServices, type Services } from '../services.ts';
import { summarizeRun, summaryRulesOf } from '../../../app/runs/summarize-run.ts';
import { until, within } from '../../../tests/support/until.ts';
import { SamplesRepository } from './samples-repository.ts';

describe('run service on this machine', () => {
  let dir: string;
  let services: Services;
  let call: Dispatcher;
  let server: TestServer;
  let hostId: number;

  const ok = async <T>(name: string, args: unknown): Promise<T> => {
    const outcome = await call(name, args);
    if (!outcome.ok) throw new Error(`${name}: ${outcome.error.code}: ${outcome.error.message}`);
    return outcome.result as T;
  };

  const profile = (load: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    target: `http://127.0.0.1:${server.port}`,
    request: { path: '/hello' },
    load,
    ...extra,
  });

  /** The session's final state, once the run service says it is over (bounded by `timeoutMs`). */
  const waitUntilOver = (sessionId: number, timeoutMs = 30_000): Promise<LiveRun> => within(services.runs.finished(sessionId), `session ${sessionId} to end`, timeoutMs);

  /** Resolves at the first measured point the run service sends (bounded). */
  const firstMeasuredPoint = (): Promise<void> =>
    within(
      new Promise<void>((resolve) => {
        const off = services.bus.subscribe('runs.points', (batch) => {
          if (!batch.points.some((point) => !point.warmup)) return;
          off();
          resolve();
        });
      }),
      'a measured point',
      15_000,
    );

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'benchlab-runs-test-'));
    services = createServices({ dataDir: dir, transport: 'cli', version: 'test' });
    call = createDispatcher(createHandlers(services), (error) => console.error(error));
    server = await startTestServer();
    hostId = (await ok<{ id: number }>('hosts.addLocal', {})).id;
  });

  after(async () => {
    await services.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a two-step sweep with warm-up and a pause stores each measured second and a summary per step', async () => {
    const states: LiveRun[] = [];
    const batches: LivePoints[] = [];
    const offState = services.bus.subscribe('runs.state', (state) => states.push(state));
    const offPoints = services.bus.subscribe('runs.points', (batch) => {
      batches.push(batch);
      services.runs.ack(batch.sessionId, batch.seq);
    });
    const started = await ok<LiveRun>('runs.start', {
      clientHostId: hostId,
      serverHostId: hostId,
      profile: profile({ model: 'closed', connections: 4, durationS: 2 }, { sweep: [2, 4], warmupS: 1, pauseS: 1 }),
    });
    const run = await waitUntilOver(started.sessionId);
    offState();
    offPoints();
    assert.equal(run.status, 'completed', run.message ?? '');
    assert.deepEqual(
      run.steps.map((step) => [step.label, step.status]),
      [
        ['c=2, 2 s', 'completed'],
        ['c=4, 2 s', 'completed'],
      ],
    );
    assert.ok(states.some((state) => state.status === 'pausing'));
    const stored = await ok<Array<{ id: number; status: string; sampleCount: number; summary: RunSummary }>>('runs.list', {
      sessionId: started.sessionId,
    });
    assert.equal(stored.length, 2);
    for (const step of stored) {
      assert.equal(step.status, 'completed');
      assert.equal(step.sampleCount, 2, 'two measured seconds per step, warm-up not stored');
      assert.ok(step.summary.requests > 100 && step.summary.requestsPerSecond > 50);
      assert.ok(step.summary.p99Us! > 0);
      assert.ok(step.summary.books?.balanced && step.summary.books.inFlight === 0, JSON.stringify(step.summary.books));
      assert.equal(step.summary.books.scheduled, step.summary.books.answered, 'a healthy server answers every request');
      assert.equal(step.summary.seconds, 2, 'the window is the step’s duration, the drain apart');
      assert.equal(step.summary.bands.length, 3);
    }
    const samples = new SamplesRepository(services.db).forRun(stored[0]!.id);
    assert.equal(samples.reduce((sum, sample) => sum + sample.requests, 0), stored[0]!.summary.requests, 'the drain’s answers count too');
    assert.deepEqual(
      samples.map((sample) => sample.phase),
      ['measure', 'measure', 'drain'],
      'the answers still due after the window arrive in one drain row',
    );
    assert.equal(samples.at(-1)!.inFlight, 0);
    assert.ok(samples[0]!.histogram && samples[0]!.histogram.length > 10);
    assert.ok(samples[0]!.serverMetrics && samples[0]!.serverMetrics.memTotalBytes! > 0, 'server metrics stored beside the client ones');
    const points = batches.flatMap((batch) => batch.points);
    assert.equal(points.filter((point) => point.warmup).length, 1);
    assert.equal(points.filter((point) => !point.warmup && !point.drain).length, 4);
    assert.equal(points.filter((point) => point.drain).length, 2, 'each step’s drain drawn: the late answers the table counts');
    assert.ok(points.every((point, i) => i === 0 || point.t >= points[i - 1]!.t));
    const session = await ok<{ status: string; runCount: number }>('sessions.get', { id: started.sessionId });
    assert.deepEqual([session.status, session.runCount], ['completed', 2]);

    // One summary and one chart point: what was shown live is what the store gives back later.
    const replay = services.compare.replay(started.sessionId);
    assert.deepEqual(replay.points, points.filter((point) => !point.warmup), 'replay draws exactly the points drawn live (warm-up seconds are not stored)');
    for (const [i, step] of run.steps.entries()) {
      const readBack = summarizeRun(new SamplesRepository(services.db).forRun(stored[i]!.id), summaryRulesOf(run.profile, services.runs.list(started.sessionId)[i]!.step));
      assert.deepEqual(readBack.summary, step.summary, `step ${i + 1}: the live summary is the one read back from the stored seconds`);
      assert.deepEqual(stored[i]!.summary, step.summary, `step ${i + 1}: and the one stored at its end`);
      assert.deepEqual(replay.run.steps[i]!.bottleneck, step.bottleneck, `step ${i + 1}: the same bottleneck verdict`);
    }
  });

  test('Stop halts the load and keeps what was measured', async () => {
    const measured = firstMeasuredPoint();
    const started = await ok<LiveRun>('runs.start', { clientHostId: hostId, profile: profile({ model: 'closed', connections: 2, durationS: 30 }) });
    await measured;
    const stopped = await ok<LiveRun>('runs.stop', { sessionId: started.sessionId });
    assert.equal(stopped.status, 'cancelled');
    // Stopped by the agent itself at our request; its connections close with it (a load going on
    // would hold them). How soon after Stop is a figure of npm run bench.
    assert.equal(stopped.steps[0]!.status, 'stopped');
    await until(async () => (await server.openConnections()) === 0, 'the agent’s connections to close', 5000);
    assert.ok(stopped.steps[0]!.summary!.requests > 0);
    const session = await ok<{ status: string }>('sessions.get', { id: started.sessionId });
    assert.equal(session.status, 'cancelled');
  });

  test('bad profiles are refused before anything starts, naming the field', async () => {
    const refusal = async (load: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
      const outcome = await call('runs.start', { clientHostId: hostId, profile: { ...profile(load), ...extra } });
      assert.equal(outcome.ok, false);
      return outcome.ok ? '' : `${outcome.error.code}: ${outcome.error.message}`;
    };
    assert.equal(await refusal({ model: 'closed', connections: 0, durationS: 5 }), 'invalid_args: profile.load.connections: must be at least 1');
    assert.equal(await refusal({ model: 'open', rate: -10, durationS: 5 }), 'invalid_args: profile.load.rate: must be greater than 0');
    assert.equal(
      await refusal({ model: 'closed', connections: 1, durationS: 5 }, { request: { path: 'hello' } }),
      'invalid_args: profile.request.path: must start with "/" (for example /hello)',
    );
  });

  test('an unreachable target is refused with the reason, and no session is left running', async () => {
    const closed = await startTestServer();
    const port = closed.port;
    await closed.close();
    const outcome = await call('runs.start', { clientHostId: hostId, profile: { ...profile({ model: 'closed', connections: 1, durationS: 5 }), target: `http://127.0.0.1:${port}` } });
    assert.equal(outcome.ok, false);
    if (!outcome.ok) {
      assert.equal(outcome.error.code, 'unreachable');
      assert.equal(outcome.error.message, `target: http://127.0.0.1:${port} is not reachable from This machine: connection refused (nothing listens on that port)`);
    }
    assert.ok(services.sessions.list().every((session) => session.status !== 'running'));
  });
});
