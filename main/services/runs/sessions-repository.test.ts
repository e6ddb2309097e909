// The library's headline per session: read from the runs' stored summaries in the one library
// query — a single run's figures, a sweep's best step (most requests/s) with the number of steps,
// errors and not-sent from the summarizer's books, and none for a session without a result.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SummaryAccumulator } from '../../../app/runs/run-summary.ts';
import { headlineErrors } from '../../../app/sessions/session-library.ts';
import { createSeeder } from '../../../tests/support/session-seed.ts';
import { RunsRepository } from './runs-repository.ts';
import { SessionsRepository } from './sessions-repository.ts';
import { openTestDatabase } from '../../../tests/support/test-database.ts';

const { db } = openTestDatabase('sessions-repo');
const sessions = new SessionsRepository(db);
const runs = new RunsRepository(db);
const seeder = createSeeder(db);

test('a sweep’s headline is its best step’s, with the number of steps that have a result', () => {
  const sweep = seeder.session({ name: 'sweep', rps: 2000, latencyUs: 900, seconds: 5, sweep: [10, 50, 100] });
  const stored = runs.forSession(sweep.sessionId);
  const best = stored.reduce((a, b) => (b.summary!.requestsPerSecond > a.summary!.requestsPerSecond ? b : a));
  const entry = sessions.library().find((candidate) => candidate.id === sweep.sessionId)!;
  assert.deepEqual(entry.headline, {
    runId: best.id,
    requestsPerSecond: best.summary!.requestsPerSecond,
    p99Us: best.summary!.p99Us,
    failed: 0,
    notSent: 0,
    steps: 3,
    stepLabel: best.step.label,
    stepStatus: 'completed',
    saturation: [],
  });
});

test('“best of N steps” is the most requests/s among the completed steps without signs of saturation, never a failed or overloaded one', () => {
  const session = sessions.create({ name: 'open sweep', status: 'running' });
  // rps asked, rps answered in the window, answers after it, timeouts; the run's status.
  const step = (ordinal: number, rate: number, answered: number, late: number, timeouts: number, status: 'completed' | 'failed' = 'completed') => {
    const accumulator = new SummaryAccumulator();
    for (let second = 0; second < 10; second++) {
      accumulator.add({ scheduled: rate, inFlight: 0, requests: answered, bytes: answered, durationMs: 1000, errors: { timeout: timeouts }, status: { '2xx': answered }, histogram: null }, second);
    }
    if (late > 0) accumulator.add({ phase: 'drain', scheduled: 0, inFlight: 0, requests: late, bytes: late, durationMs: 800, errors: {}, status: { '2xx': late }, histogram: null });
    const label = `rate=${rate}/s, 10 s`;
    const id = runs.create({ sessionId: session.id, ordinal, templateId: 'node', variant: '', step: { label, load: { model: 'open', rate, durationS: 10 } } });
    runs.finish(id, status, { summary: accumulator.summary([800, 1200]), histogram: null });
    return id;
  };
  step(1, 500, 500, 0, 0);
  const clean = step(2, 1000, 1000, 0, 0);
  step(3, 2000, 1300, 3280, 0); // overloaded: answers 65 % of the asked rate, thousands late
  step(4, 4000, 2900, 0, 0, 'failed');
  const headline = sessions.library().find((entry) => entry.id === session.id)!.headline!;
  assert.equal(headline.runId, clean, 'not the overloaded step with more requests/s, not the failed one with the most');
  assert.deepEqual([headline.steps, headline.stepLabel, headline.requestsPerSecond, headline.stepStatus, headline.saturation], [4, 'rate=1000/s, 10 s', 1000, 'completed', []]);

  // Every completed step overloaded: the one with the most requests/s, with its signs.
  const hard = sessions.create({ name: 'all overloaded', status: 'running' });
  const id = runs.create({ sessionId: hard.id, ordinal: 1, templateId: 'node', variant: '', step: { label: 'rate=4000/s, 10 s', load: { model: 'open', rate: 4000, durationS: 10 } } });
  const accumulator = new SummaryAccumulator();
  accumulator.add({ scheduled: 40_000, inFlight: 0, requests: 20_000, bytes: 1, durationMs: 10_000, errors: { timeout: 20_000 }, status: { '2xx': 20_000 }, histogram: null });
  runs.finish(id, 'completed', { summary: accumulator.summary([800]), histogram: null });
  const saturated = sessions.library().find((entry) => entry.id === hard.id)!.headline!;
  assert.deepEqual(saturated.saturation, ['50.0 % failed', 'answered 50 % of the 4000 req/s asked']);
});

test('errors + not sent come from the summarizer’s books; a session without a result has no headline', () => {
  const draft = sessions.create({ name: 'draft' });
  const failing = sessions.create({ name: 'errors', status: 'running' });
  const accumulator = new SummaryAccumulator();
  accumulator.add({ scheduled: 100, inFlight: 0, requests: 80, bytes: 800, durationMs: 1000, errors: { timeout: 5, reset: 3 }, notSent: { 'pool-full': 7 }, status: { '2xx': 75, '5xx': 5 }, histogram: null });
  const summary = accumulator.summary([1, 10]);
  const ran = runs.create({ sessionId: failing.id, ordinal: 1, templateId: 'node', variant: '', step: { label: 'rate=100/s, 1 s' } });
  runs.finish(ran, 'completed', { summary, histogram: null });
  // A run that ended without a result (failed at start) is no step of the headline.
  runs.create({ sessionId: failing.id, ordinal: 2, templateId: 'node', variant: '', step: { label: 'rate=200/s, 1 s' } });

  const library = sessions.library();
  assert.equal(library.find((entry) => entry.id === draft.id)!.headline, null);
  const headline = library.find((entry) => entry.id === failing.id)!.headline!;
  assert.equal(headline.steps, 1);
  assert.equal(headline.stepLabel, 'rate=100/s, 1 s');
  assert.equal(headline.failed, summary.failed);
  assert.equal(headline.notSent, 7);
  assert.equal(headlineErrors(headline), 5 + 3 + 5 + 7, 'non-2xx, timeouts and resets, plus the never sent');
});

test("a session whose deployment started a private database shows it in one line in the library; others show none", () => {
  const database = { kind: 'postgresql', version: '15.14', port: 41234, name: 'benchlab', user: 'benchlab', settings: { shared_buffers: '128MB', fsync: 'on' } };
  const withDatabase = sessions.create({ name: 'db', config: { target: 'http://10.0.0.2:8080', database } });
  const without = sessions.create({ name: 'plain', config: { target: 'http://10.0.0.2:8080' } });
  const library = sessions.library();
  assert.equal(library.find((entry) => entry.id === withDatabase.id)!.database, 'PostgreSQL 15.14 on port 41234 · shared_buffers 128MB, fsync on');
  assert.equal(library.find((entry) => entry.id === without.id)!.database, null);
});
