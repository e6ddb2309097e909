// The steady-state check: drift between the halves of a run's window, the thresholds below which
// nothing is said, and the evidence in words.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { judgeSteadiness, MIN_STEADY_SECONDS, type SecondForSteadiness } from './steady-state.ts';

/** `count` full seconds; requests and p50 per second from functions of the second's index. */
function series(count: number, requests: (i: number) => number, p50Us: (i: number) => number | null = () => 2000): SecondForSteadiness[] {
  return Array.from({ length: count }, (_, i) => ({ requests: requests(i), durationMs: 1000, p50Us: p50Us(i) }));
}

test('a flat run with per-second noise is steady, with the changes it saw', () => {
  const verdict = judgeSteadiness(series(30, (i) => 1000 + (i % 3) * 20 - 20, (i) => 2000 + (i % 2) * 100));
  assert.equal(verdict?.steady, true);
  assert.match(verdict!.message, /^steady: between the halves requests\/s [+−±]\d+ %, p50 [+−±]\d+ % \(within 10 %\)$/);
});

test('throughput falling 18 % from the first half to the second is not steady, and says so', () => {
  const verdict = judgeSteadiness(series(20, (i) => (i < 10 ? 1000 : 820)));
  assert.deepEqual(verdict, { steady: false, message: 'not steady: requests/s fell 18 % from the first half to the second' });
});

test('a p50 that climbs is not steady even when throughput holds (open model)', () => {
  const verdict = judgeSteadiness(series(20, () => 500, (i) => 1000 + i * 40));
  assert.equal(verdict?.steady, false);
  assert.match(verdict!.message, /p50 rose \d+ % from the first half to the second/);
  assert.doesNotMatch(verdict!.message, /requests\/s/);
});

test('a partial last second weighs by its length', () => {
  const seconds = series(20, () => 1000);
  seconds[19] = { requests: 300, durationMs: 300, p50Us: 2000 };
  assert.equal(judgeSteadiness(seconds)?.steady, true);
});

test('nothing is said below the minimum length, with too few requests and no latencies', () => {
  assert.equal(judgeSteadiness(series(MIN_STEADY_SECONDS - 1, (i) => (i < 4 ? 1000 : 500))), null);
  assert.equal(judgeSteadiness(series(20, (i) => (i < 10 ? 8 : 4), () => null)), null);
  // Few requests: only p50 is judged.
  assert.equal(judgeSteadiness(series(20, (i) => (i < 10 ? 8 : 4)))?.message.includes('requests/s'), false);
});

test('a tiny p50 change in microseconds is jitter, not drift', () => {
  assert.equal(judgeSteadiness(series(20, () => 1000, (i) => (i < 10 ? 100 : 130)))?.steady, true);
});
