// The library's headline per session: read from the runs' stored summaries in the one library
// query — a single run's figures, a sweep's best step (most requests/s) with the number of steps,
// errors and not-sent from the summarizer's books, and none for a session without a result.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SummaryAccumulator } from '../../../app/runs/run-summary.ts';
import { headlineErrors } from '../../../app/sessions/session-library.ts';
import { createSeeder } from '../../../tests/support/session-seed.ts';
import { RunsRepository } from '../runs/runs-repository.ts';
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
  });
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
