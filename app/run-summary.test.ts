// Tests of run summaries: totals by addition, requests/s over the measured time, bands, failures.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createLatencyHistogram, encodeHistogram, recordLatencyUs } from './hdr.ts';
import { bandLabels, summarize, SummaryAccumulator, type SummarySecond } from './run-summary.ts';

function second(latenciesMs: number[], extra: Partial<SummarySecond> = {}): SummarySecond {
  const histogram = createLatencyHistogram();
  for (const ms of latenciesMs) recordLatencyUs(histogram, ms * 1000);
  return {
    requests: latenciesMs.length,
    bytes: latenciesMs.length * 100,
    durationMs: 1000,
    errors: {},
    status: { '2xx': latenciesMs.length },
    histogram: encodeHistogram(histogram),
    ...extra,
  };
}

describe('run summaries', () => {
  test("the seeds' columns from added seconds", () => {
    const summary = summarize(
      [second(Array(900).fill(100)), second(Array(100).fill(1000), { errors: { timeout: 3, non2xx: 2 } }), second([], { durationMs: 500, histogram: null })],
      [800, 1200],
    );
    assert.equal(summary.requests, 1000);
    assert.equal(summary.seconds, 2.5);
    assert.equal(summary.requestsPerSecond, 400);
    assert.equal(summary.bytesPerSecond, 40_000);
    assert.ok(Math.abs(summary.p50Us! - 100_000) < 100);
    assert.ok(Math.abs(summary.p99Us! - 1_000_000) < 1000);
    assert.ok(Math.abs(summary.meanUs! - 190_000) < 200);
    assert.deepEqual(
      summary.bands.map((band) => [band.label, band.count]),
      [
        ['< 800 ms', 900],
        ['800–1200 ms', 100],
        ['≥ 1200 ms', 0],
      ],
    );
    assert.equal(summary.bands[0]!.share, 0.9);
    assert.equal(summary.failed, 5);
    assert.equal(summary.errors.timeout, 3);
    assert.equal(summary.status['2xx'], 1000);
  });

  test('several clients at the same second count its duration once', () => {
    const accumulator = new SummaryAccumulator();
    accumulator.add(second([1, 2]), 0);
    accumulator.add(second([3]), 0);
    accumulator.add(second([4]), 1);
    const summary = accumulator.summary([]);
    assert.equal(summary.seconds, 2);
    assert.equal(summary.requests, 4);
    assert.deepEqual(summary.bands.map((band) => band.label), ['all']);
  });

  test('an empty run has zero rates and null latencies', () => {
    const summary = summarize([], [800, 1200]);
    assert.equal(summary.requestsPerSecond, 0);
    assert.equal(summary.p99Us, null);
  });

  test('band labels', () => {
    assert.deepEqual(bandLabels([100, 250.5, 1000]), ['< 100 ms', '100–250.5 ms', '250.5–1000 ms', '≥ 1000 ms']);
  });
});
