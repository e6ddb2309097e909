// Tests of run summaries: totals by addition, requests/s over the measured time, bands, failures,
// and the books (every scheduled request in one bucket).

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createLatencyHistogram, encodeHistogram, recordLatencyUs } from '../common/hdr.ts';
import { bandLabels, intervalBalances, SummaryAccumulator, type SummarySecond } from './run-summary.ts';

/** The accumulator fed the seconds, as summarize-run.ts feeds it. */
function summarize(seconds: Iterable<SummarySecond>, bucketsMs: readonly number[]) {
  const accumulator = new SummaryAccumulator();
  for (const second of seconds) accumulator.add(second);
  return accumulator.summary(bucketsMs);
}

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
      [
        second(Array(900).fill(100)),
        second(Array(100).fill(1000), { errors: { timeout: 3 }, status: { '2xx': 98, '5xx': 2 } }),
        second([], { durationMs: 500, histogram: null }),
      ],
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
    assert.equal(summary.non2xx, 2);
    assert.equal(summary.failed, 5, 'two non-2xx answers and three timeouts');
    assert.equal(summary.errors.timeout, 3);
    assert.equal(summary.status['2xx'], 998);
    assert.equal(summary.books, null, 'seconds without a scheduled count keep no books');
  });

  test('a stored non2xx error count from before the books is not counted twice', () => {
    const summary = summarize([second([5, 5], { errors: { non2xx: 1 }, status: { '2xx': 1, '4xx': 1 } })], []);
    assert.equal(summary.failed, 1);
    assert.equal(summary.non2xx, 1);
  });

  test('the books balance across seconds, with what is in flight carried over and the drain resolving it', () => {
    const seconds: SummarySecond[] = [
      second([10, 10, 10], { scheduled: 6, inFlight: 2, errors: { closed: 1 } }),
      second([10], { scheduled: 5, inFlight: 3, errors: { timeout: 1 }, notSent: { 'pool-full': 2 } }),
      second([10, 10], { phase: 'drain', scheduled: 0, inFlight: 0, durationMs: 700, errors: { reset: 1 } }),
    ];
    let inFlight = 0;
    for (const one of seconds) {
      assert.ok(intervalBalances(one, inFlight), 'every interval balances');
      inFlight = one.inFlight ?? 0;
    }
    assert.equal(intervalBalances({ ...seconds[1]!, inFlight: 4 }, 2), false, 'a request that vanished is caught');
    const summary = summarize(seconds, []);
    assert.deepEqual(summary.books, { scheduled: 11, answered: 6, errors: 2, timeouts: 1, notSent: 2, inFlight: 0, balanced: true });
    assert.equal(summary.seconds, 2, 'the drain is not window time');
    assert.equal(summary.drainMs, 700);
    assert.equal(summary.requests, 6, 'the drain answers count');
    assert.equal(summary.requestsPerSecond, 2, 'requests/s is the window answers over the window');
    assert.equal(summary.notSent['pool-full'], 2);
    assert.equal(summary.failed, 3);
  });

  test('a run cut short keeps its unresolved requests visible and unbalanced', () => {
    const summary = summarize([second([10], { scheduled: 4, inFlight: 3 })], []);
    assert.deepEqual(summary.books, { scheduled: 4, answered: 1, errors: 0, timeouts: 0, notSent: 0, inFlight: 3, balanced: true });
    const lost = summarize([second([10], { scheduled: 4, inFlight: 0 })], []);
    assert.equal(lost.books?.balanced, false);
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

  test('four clients of each second: their counts added, the second’s time counted once, what each left in flight kept', () => {
    const accumulator = new SummaryAccumulator();
    for (let index = 0; index < 3; index++) {
      for (let client = 0; client < 4; client++) {
        // Client c answers 10 + c per second; in second 1 it schedules c + 1 more, left in flight to the end.
        const answered = 10 + client;
        const inFlight = index === 0 ? 0 : client + 1;
        const scheduled = answered + (index === 1 ? client + 1 : 0);
        accumulator.add(second(Array(answered).fill(1), { scheduled, inFlight, durationMs: client === 2 ? 900 : 1000 }), index, client);
      }
    }
    accumulator.add(second(Array(2).fill(1), { phase: 'drain', scheduled: 0, inFlight: 0, durationMs: 300 }), 3, 3);
    const summary = accumulator.summary([]);
    assert.equal(summary.seconds, 3, 'three seconds of four clients are three seconds');
    assert.equal(summary.requests, 3 * (10 + 11 + 12 + 13) + 2);
    assert.equal(summary.requestsPerSecond, 46);
    // Clients 0, 1, 2 still have 1, 2, 3 in flight; client 3's drain resolved 2 of its 4 (2 are lost).
    assert.equal(summary.books?.inFlight, 1 + 2 + 3);
    assert.equal(summary.books?.scheduled, 3 * 46 + (1 + 2 + 3 + 4));
    assert.equal(summary.books?.balanced, false, 'two of client 3’s requests were never resolved');
    const resolvedDrain = new SummaryAccumulator();
    for (let client = 0; client < 2; client++) resolvedDrain.add(second([1], { scheduled: 3, inFlight: 2 }), 0, client);
    for (let client = 0; client < 2; client++) resolvedDrain.add(second([1, 1], { phase: 'drain', scheduled: 0, inFlight: 0 }), 1, client);
    assert.deepEqual(resolvedDrain.books(), { scheduled: 6, answered: 6, errors: 0, timeouts: 0, notSent: 0, inFlight: 0, balanced: true });
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
