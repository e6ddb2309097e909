// The live run's named transitions: each changes what the dashboard shows as its name says and
// publishes the whole state once, as a copy (what was published never changes after); a session
// that ends stops the steps it never reached and keeps its message unless it failed.

import assert from 'node:assert/strict';
import { beforeEach, describe, test } from 'node:test';
import { LoadProfile } from '../../../app/runs/load-profile.ts';
import type { LiveRun } from '../../../app/runs/runs.ts';
import type { RunSummary } from '../../../app/runs/run-summary.ts';
import { LiveRunState } from './live-run-state.ts';

const profile = LoadProfile.parse({ target: 'http://127.0.0.1:8080', request: { path: '/hello' }, load: { model: 'open', rate: 100, durationS: 5 } });
const client = (index: number) => ({ index, hostId: 10 + index, name: `client-${index}`, weight: 1, cores: 2, connections: null, rate: 50, engine: null, clock: null, status: 'starting' as const, problem: null });
const summary = (requests: number) => ({ requests }) as unknown as RunSummary;

describe('live run state', () => {
  let published: LiveRun[];
  let state: LiveRunState;

  beforeEach(() => {
    published = [];
    state = new LiveRunState(
      {
        sessionId: 7,
        name: 'open 100/s',
        clientHostId: 10,
        clients: [client(0), client(1)],
        serverHostId: 3,
        profile,
        steps: [
          { index: 0, label: '100/s', targetRate: 100 },
          { index: 1, label: '200/s', targetRate: 200 },
        ],
        message: 'a clock warning',
        startedAt: '2026-01-01T00:00:00.000Z',
        engine: null,
      },
      (run) => published.push(run),
    );
  });

  test('starts with its steps pending and publishes nothing until opened', () => {
    assert.equal(state.run.status, 'starting');
    assert.deepEqual(state.run.steps.map((step) => [step.status, step.runId, step.summary]), [['pending', null, null], ['pending', null, null]]);
    assert.equal(state.run.latencyMeaning.length > 0, true, 'the latency is said in words');
    assert.equal('calibration' in state.run, false, 'fixed steps name no calibration');
    assert.equal(published.length, 0);
    state.opened();
    assert.equal(published.length, 1);
    assert.equal(published[0]!.status, 'starting');
  });

  test('every transition publishes once, a copy that later transitions leave as it was', () => {
    state.opened();
    state.stepStarted(0, { runId: 41, atS: 0.5, warmup: true, shares: [{ connections: null, rate: 60 }, { connections: null, rate: 40 }] });
    state.clientRunning(0);
    state.clientRunning(1);
    state.tallied(0, 'warmup', { summary: summary(1) });
    state.tallied(0, 'measure', { summary: summary(2), bottleneck: null, clientVerdicts: [] });
    state.stepEnded(0, 'completed', { summary: summary(3), bottleneck: null, clientVerdicts: [] }, 6.5);
    state.ended('completed', new Date('2026-01-01T00:00:10.000Z'), null);
    assert.equal(published.length, 8, 'one publish per transition');
    assert.equal(published[1]!.steps[0]!.status, 'warmup');
    assert.equal(published[1]!.clients[0]!.status, 'starting');
    assert.equal(published[2]!.clients[0]!.status, 'running');
    assert.equal(published[2]!.clients[1]!.status, 'starting', 'each client in its own transition');
    assert.equal(published[5]!.steps[0]!.status, 'running', 'the first measured second ends the warm-up');
    assert.equal(published[1]!.status, 'running', 'an earlier publish is not changed by later transitions');
  });

  test('a step starts: its run, its start, each client starting with its share', () => {
    state.clientFailed(1, 'lost', { atS: 1, message: 'gone' });
    state.stepStarted(1, { runId: 42, atS: 12.3, warmup: false, shares: [{ connections: null, rate: 120 }, { connections: null, rate: 80 }] });
    const run = state.run;
    assert.equal(run.status, 'running');
    assert.equal(run.currentStep, 1);
    assert.deepEqual([run.steps[1]!.runId, run.steps[1]!.startedAtS, run.steps[1]!.status], [42, 12.3, 'running']);
    assert.deepEqual(run.clients.map((c) => [c.status, c.rate, c.problem]), [['starting', 120, null], ['starting', 80, null]], 'a new step starts each client afresh');
  });

  test('a warm-up second stays in the warm-up; a drain second updates the summary only', () => {
    state.stepStarted(0, { runId: 1, atS: 0, warmup: true, shares: [] });
    state.tallied(0, 'warmup', { summary: summary(4) });
    assert.equal(state.step(0).status, 'warmup');
    state.tallied(0, 'measure', { summary: summary(5), bottleneck: null, clientVerdicts: [{ clientIndex: 0, bottleneck: null }] });
    state.tallied(0, 'drain', { summary: summary(6) });
    assert.equal((state.step(0).summary as unknown as { requests: number }).requests, 6);
    assert.deepEqual(state.step(0).clientVerdicts, [{ clientIndex: 0, bottleneck: null }], 'the drain leaves the verdicts');
    assert.equal(state.step(0).status, 'running');
  });

  test('a lost client and a degraded step are shown with when and why', () => {
    state.stepStarted(0, { runId: 1, atS: 0, warmup: false, shares: [] });
    state.clientFailed(1, 'failed', { atS: 3.2, message: 'the agent failed' });
    state.stepDegraded(0, { clientIndex: 1, hostName: 'client-1', atS: 3.2, message: 'the agent failed', lostSeconds: 2 });
    assert.deepEqual(state.run.clients[1]!.problem, { atS: 3.2, message: 'the agent failed' });
    assert.equal(state.run.clients[1]!.status, 'failed');
    assert.equal(state.step(0).degraded?.lostSeconds, 2);
  });

  test('stopping says why when there is a why, and keeps the message on Stop', () => {
    state.stopping(null);
    assert.deepEqual([state.run.status, state.run.message], ['stopping', 'a clock warning']);
    state.stopping('stopped at the cap');
    assert.equal(state.run.message, 'stopped at the cap');
    assert.equal(state.isOver(), false);
  });

  test('the end stops the steps never reached; a failure replaces the message, else it stays', () => {
    state.stepStarted(0, { runId: 1, atS: 0, warmup: false, shares: [] });
    state.stepEnded(0, 'completed', { summary: null, bottleneck: null, clientVerdicts: [] }, 5);
    state.ended('cancelled', new Date('2026-01-01T00:00:06.000Z'), null);
    assert.deepEqual(state.run.steps.map((step) => step.status), ['completed', 'stopped']);
    assert.deepEqual([state.run.status, state.run.currentStep, state.run.endedAt, state.run.message], ['cancelled', null, '2026-01-01T00:00:06.000Z', 'a clock warning']);
    assert.equal(state.isOver(), true);
    state.ended('failed', new Date('2026-01-01T00:00:07.000Z'), 'the store is full');
    assert.equal(state.run.message, 'the store is full');
  });

  test('the pause names the step it leads to; silence is shown as the link watch says', () => {
    state.pausing(1);
    assert.deepEqual([state.run.status, state.run.currentStep], ['pausing', 1]);
    state.silence({ client: '2026-01-01T00:00:02.000Z', server: null });
    assert.equal(state.run.silentSince.client, '2026-01-01T00:00:02.000Z');
  });

  test('a snapshot is a copy', () => {
    const copy = state.snapshot();
    copy.steps[0]!.status = 'failed';
    assert.equal(state.step(0).status, 'pending');
  });
});
