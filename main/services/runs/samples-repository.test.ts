// Samples round-trip through a real SQLite file (with or without their histograms), and a failing
// batch stores nothing; the drain is left out of the measured window.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RunsRepository } from './runs-repository.ts';
import { SamplesRepository, type SampleInput } from './samples-repository.ts';
import { SessionsRepository } from './sessions-repository.ts';
import { openTestDatabase } from '../../../tests/support/test-database.ts';

const { db } = openTestDatabase('samples');

const session = new SessionsRepository(db).create({ name: 'samples' });
const runId = new RunsRepository(db).create({ sessionId: session.id, ordinal: 1, templateId: 'node', variant: 'async' });
const samples = new SamplesRepository(db);

function sample(second: number): SampleInput {
  return {
    second,
    scheduled: 1000 + second + (second % 2),
    notSent: {},
    inFlight: 0,
    requests: 1000 + second,
    bytes: 43_000 * (1000 + second),
    errors: { timeout: second % 2 },
    statusClasses: { '2xx': 1000 + second },
    p50Us: 800,
    p90Us: 1500,
    p99Us: 4200 + second,
    maxUs: 9000,
    histogram: Buffer.from([second, 1, 2, 3]).toString('base64'),
    // Every other second as an older agent sent it: no phases.
    phases:
      second % 2 === 0
        ? { connect: Buffer.from([second, 4]).toString('base64'), waiting: Buffer.from([second, 5]).toString('base64'), processing: null, withConnect: second }
        : null,
    clientMetrics: { cpu: 0.5 },
    serverMetrics: null,
  };
}

test('samples come back in second order with every field intact', () => {
  samples.append(runId, [sample(2), sample(0), sample(1)]);
  const stored = samples.forRun(runId);
  assert.deepEqual(
    stored.map((s) => s.second),
    [0, 1, 2],
  );
  assert.deepEqual(stored[2], { ...sample(2), clientIndex: 0, phase: 'measure' });
  assert.deepEqual(stored[1], { ...sample(1), clientIndex: 0, phase: 'measure' }, 'a second without phases reads back without them');
  assert.deepEqual(
    samples.withoutHistograms(runId)[2],
    { ...sample(2), histogram: null, phases: { connect: null, waiting: null, processing: null, withConnect: 2 }, clientIndex: 0, phase: 'measure' },
    'the read model without histograms keeps the phases counts',
  );
});

test('a batch with one bad sample stores none of it', () => {
  // second 0 already exists: the primary key refuses it, and the whole batch rolls back.
  assert.throws(() => samples.append(runId, [sample(3), sample(0)]), /UNIQUE/);
  assert.equal(samples.forRun(runId).length, 3);
});

test('the measured window leaves the drain out', () => {
  const other = new RunsRepository(db).create({ sessionId: session.id, ordinal: 2, templateId: 'node', variant: 'async' });
  samples.append(other, [sample(0), sample(1), { ...sample(2), phase: 'drain' }]);
  assert.deepEqual(
    samples.forRun(other).map((s) => s.phase),
    ['measure', 'measure', 'drain'],
  );
  assert.deepEqual(
    samples.withoutHistograms(other, { measured: true }).map((s) => [s.second, s.phase]),
    [
      [0, 'measure'],
      [1, 'measure'],
    ],
  );
});
