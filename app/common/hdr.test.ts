// Tests of the latency histograms: clamping, encode/decode round trips, exact merging, bands, stats.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  countBands,
  createLatencyHistogram,
  decodeHistogram,
  encodeHistogram,
  HIGHEST_US,
  intervalPercentiles,
  latencyStats,
  mergeEncodedHistograms,
  recordLatencyUs,
} from './hdr.ts';

function seeded(seed: number) {
  return () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
}

describe('latency histograms', () => {
  test('values outside 1 µs–60 s are clamped, not lost', () => {
    const histogram = createLatencyHistogram();
    recordLatencyUs(histogram, 0);
    recordLatencyUs(histogram, -5);
    recordLatencyUs(histogram, 90_000_000);
    recordLatencyUs(histogram, Number.NaN);
    assert.equal(histogram.totalCount, 4);
    assert.equal(histogram.minNonZeroValue, 1);
    assert.ok(histogram.maxValue >= HIGHEST_US * 0.999);
  });

  test('encode → decode keeps every count', () => {
    const histogram = createLatencyHistogram();
    for (let us = 1; us <= 5_000_000; us = Math.ceil(us * 1.01)) recordLatencyUs(histogram, us);
    const decoded = decodeHistogram(encodeHistogram(histogram));
    assert.equal(decoded.totalCount, histogram.totalCount);
    assert.deepEqual(latencyStats(decoded), latencyStats(histogram));
  });

  test('merging interval histograms equals recording everything in one (exact addition)', () => {
    const random = seeded(7);
    const all = createLatencyHistogram();
    const intervals: string[] = [];
    for (let second = 0; second < 30; second++) {
      const interval = createLatencyHistogram();
      const n = 500 + Math.floor(random() * 2000);
      for (let i = 0; i < n; i++) {
        const us = 200 * Math.exp(random() * 8);
        recordLatencyUs(interval, us);
        recordLatencyUs(all, us);
      }
      intervals.push(encodeHistogram(interval));
    }
    const merged = mergeEncodedHistograms([...intervals, null]);
    assert.equal(merged.totalCount, all.totalCount);
    assert.deepEqual(latencyStats(merged), latencyStats(all));
    assert.equal(encodeHistogram(merged), encodeHistogram(all));
  });

  test('a merged p99 is not the average of per-second p99s', () => {
    const quiet = createLatencyHistogram();
    const stalled = createLatencyHistogram();
    for (let i = 0; i < 1000; i++) recordLatencyUs(quiet, 1000);
    for (let i = 0; i < 1000; i++) recordLatencyUs(stalled, i < 900 ? 1000 : 1_000_000);
    const merged = mergeEncodedHistograms([encodeHistogram(quiet), encodeHistogram(stalled)]);
    // 100 of 2000 values are ~1 s: the merged p99 is a stalled value, the average of p99s is not.
    assert.ok(latencyStats(merged).p99Us! > 900_000);
    const averaged = (latencyStats(quiet).p99Us! + latencyStats(stalled).p99Us!) / 2;
    assert.ok(averaged < 600_000);
  });

  test('bands split at the boundaries', () => {
    const histogram = createLatencyHistogram();
    for (const ms of [10, 500, 799, 801, 1000, 1199, 1201, 5000]) recordLatencyUs(histogram, ms * 1000);
    assert.deepEqual(countBands(histogram, [800_000, 1_200_000]), [3, 3, 2]);
    assert.deepEqual(countBands(histogram, []), [8]);
  });

  test('stats of an empty histogram are null', () => {
    const stats = latencyStats(createLatencyHistogram());
    assert.equal(stats.count, 0);
    assert.equal(stats.p99Us, null);
    assert.deepEqual(intervalPercentiles(createLatencyHistogram()), { p50Us: null, p90Us: null, p99Us: null, maxUs: null });
  });

  test('a second’s columns alone are the same as in the full stats', () => {
    const histogram = createLatencyHistogram();
    for (let i = 1; i <= 5000; i++) recordLatencyUs(histogram, i * 37);
    const { p50Us, p90Us, p99Us, maxUs } = latencyStats(histogram);
    assert.deepEqual(intervalPercentiles(histogram), { p50Us, p90Us, p99Us, maxUs });
  });

  test('mean and standard deviation match the recorded values within HDR resolution', () => {
    const histogram = createLatencyHistogram();
    const values = [1000, 2000, 3000, 4000, 5000];
    for (const value of values) recordLatencyUs(histogram, value);
    const stats = latencyStats(histogram);
    assert.ok(Math.abs(stats.meanUs! - 3000) / 3000 < 0.001);
    assert.ok(Math.abs(stats.stdDevUs! - Math.sqrt(2_000_000)) / Math.sqrt(2_000_000) < 0.002);
  });
});
