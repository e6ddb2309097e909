import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bootstrapDifference, bootstrapMedian, median, seededRandom, seedFrom } from './compare-stats.ts';

test('median of odd and even counts', () => {
  assert.equal(median([3, 1, 2]), 2);
  assert.equal(median([4, 1, 3, 2]), 2.5);
  assert.ok(Number.isNaN(median([])));
});

test('the seeded random source repeats and stays in [0, 1)', () => {
  const a = seededRandom(7);
  const b = seededRandom(7);
  const values = Array.from({ length: 1000 }, () => a());
  assert.deepEqual(values.slice(0, 5), Array.from({ length: 5 }, () => b()));
  assert.ok(values.every((value) => value >= 0 && value < 1));
  assert.equal(seedFrom([1, 2, 3]), seedFrom([1, 2, 3]));
  assert.notEqual(seedFrom([1, 2, 3]), seedFrom([1, 2, 4]));
});

test('bootstrap CI of the median holds the median and is repeatable with a seed', () => {
  const values = [1000, 1020, 980, 1010, 990, 1005, 995];
  const first = bootstrapMedian(values, seededRandom(1));
  const second = bootstrapMedian(values, seededRandom(1));
  assert.deepEqual(first, second);
  assert.equal(first.median, 1000);
  assert.ok(first.low <= first.median && first.median <= first.high);
  assert.ok(first.low >= 980 && first.high <= 1020);
});

test('a single run has a degenerate interval', () => {
  assert.deepEqual(bootstrapMedian([42], seededRandom(1)), { n: 1, median: 42, low: 42, high: 42 });
});

test('clearly separated configurations differ significantly; overlapping ones do not', () => {
  const random = seededRandom(3);
  const slow = [10_000, 10_100, 9_950, 10_050, 9_900];
  const fast = [15_000, 15_200, 14_900, 15_100, 14_950];
  const apart = bootstrapDifference(slow, fast, random);
  assert.ok(apart);
  assert.equal(apart.significant, true);
  assert.equal(apart.delta, 5000);
  const noisy = [10_000, 12_000, 9_000, 11_500, 10_500];
  const alike = bootstrapDifference(slow, noisy, random);
  assert.equal(alike?.significant, false);
  assert.equal(bootstrapDifference([1], [2, 3], random), null);
});
