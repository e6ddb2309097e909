import assert from 'node:assert/strict';
import { test } from 'node:test';
import { falsePositiveRate, verdictRate } from './compare-calibration.ts';
import { median } from '../common/median.ts';
import { bootstrapMedian, pairedRatioInterval, ratioVerdict, seededRandom, seedFrom, studentTCdf, studentTQuantile } from './compare-stats.ts';

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

test('Student t quantiles match the tables, also for fractional degrees of freedom', () => {
  assert.ok(Math.abs(studentTQuantile(0.975, 4) - 2.776) < 1e-3);
  assert.ok(Math.abs(studentTQuantile(0.975, 8) - 2.306) < 1e-3);
  assert.ok(Math.abs(studentTQuantile(0.975, 1e6) - 1.96) < 1e-3);
  const between = studentTQuantile(0.975, 5.5);
  assert.ok(between < studentTQuantile(0.975, 5) && between > studentTQuantile(0.975, 6));
  assert.ok(Math.abs(studentTCdf(-2.776, 4) - 0.025) < 1e-4);
});

test('clearly separated configurations get a ratio interval above 1; overlapping ones no difference', () => {
  const slow = [10_000, 10_100, 9_950, 10_050, 9_900];
  const fast = [13_000, 13_200, 12_900, 13_100, 12_950];
  const apart = ratioVerdict(slow, fast);
  assert.equal(apart.kind, 'higher');
  assert.ok(apart.ratio! > 1.29 && apart.ratio! < 1.31);
  assert.ok(apart.low! > 1.25 && apart.high! < 1.35 && apart.low! < apart.ratio! && apart.ratio! < apart.high!);
  assert.match(apart.text, /^B is 1\.30× A \(95 % CI 1\.\d\d–1\.\d\d×\)$/);
  assert.equal(ratioVerdict(fast, slow).kind, 'lower');
  const noisy = [10_000, 12_000, 9_000, 11_500, 10_500];
  const alike = ratioVerdict(slow, noisy);
  assert.equal(alike.kind, 'no-difference');
  assert.ok(alike.low! < 1 && alike.high! > 1);
  assert.match(alike.text, /^no difference shown \(0\.\d\d–1\.\d\d×\)$/);
  assert.match(ratioVerdict(slow, fast, { names: { a: 'the first', b: 'this' } }).text, /^this is 1\.30× the first/);
});

test('paired ratios: their geometric mean inside a t interval that narrows as the pairs agree and as they grow in number', () => {
  const spread = [0.9, 1.1, 0.95, 1.05];
  const few = pairedRatioInterval(spread)!;
  assert.ok(few.low < few.ratio && few.ratio < few.high);
  assert.ok(Math.abs(few.ratio - Math.exp(spread.map(Math.log).reduce((sum, value) => sum + value, 0) / spread.length)) < 1e-12);
  const many = pairedRatioInterval([...spread, ...spread, ...spread, ...spread])!;
  assert.ok(many.high - many.low < few.high - few.low, 'more pairs alike, a narrower interval');
  const agreeing = pairedRatioInterval([0.99, 1.01, 0.995, 1.005])!;
  assert.ok(agreeing.high - agreeing.low < few.high - few.low, 'pairs that agree, a narrower interval');
  assert.deepEqual(pairedRatioInterval([0.9, 0.9, 0.9]), { ratio: 0.9, low: 0.9, high: 0.9 });
  assert.equal(pairedRatioInterval([1.1]), null, 'one pair has no spread to measure');
  assert.equal(pairedRatioInterval([1.1, 0]), null);
});

test('no verdict from fewer than 5 runs a side, however far apart they are', () => {
  const verdict = ratioVerdict([10_000, 10_001], [15_000, 15_001, 15_002]);
  assert.equal(verdict.kind, 'too-few');
  assert.equal(verdict.low, null);
  assert.equal(verdict.text, 'too few runs for a verdict (n = 2 and 3; 5 a side needed)');
  assert.equal(ratioVerdict([1, 2, 3, 4, 5], [1, 2, 3, 4]).kind, 'too-few');
  assert.equal(ratioVerdict([1, 2, 3, 4, 5], [1, 2, 3, 4, 0]).kind, 'no-ratio');
});

// 4,000 trials, not 1,000: at a true rate of 5 % the measured rate of 1,000 trials has a standard
// error of 0.7 %, so a correct 5 % method would cross 6 % by chance; 4,000 trials halve that.
for (const noise of ['normal', 'lognormal', 'slow-tail'] as const) {
  for (const runs of [5, 10]) {
    test(`one distribution (${noise}), ${runs} vs ${runs} runs: called different in at most 6 % of trials`, () => {
      const rate = falsePositiveRate({ noise, runs, trials: 4000, seed: 11 });
      assert.ok(rate <= 0.06, `false-positive rate ${rate}`);
    });
  }
}

test('the false-positive check can fail, and below 5 runs a side nothing is claimed', () => {
  // A method whose intervals are too narrow (90 % instead of 95 %) is caught by the 6 % bar.
  assert.ok(verdictRate({ runs: 5, trials: 4000, seed: 11, level: 0.9 }) > 0.06);
  // 2 vs 2 runs, what the old verdict accepted: no claim at all.
  assert.equal(falsePositiveRate({ runs: 2, trials: 200 }), 0);
});

test('a real 30 % difference at 5 runs a side is found most of the time', () => {
  for (const noise of ['normal', 'lognormal', 'slow-tail'] as const) {
    const power = verdictRate({ noise, runs: 5, factor: 1.3, spread: 0.1, trials: 1000, seed: 5 });
    assert.ok(power >= 0.8, `${noise}: found in ${power}`);
  }
});
