// Statistics for repeated runs of one configuration: the median with its 95 % bootstrap interval
// (descriptive: the random source is injected so tests repeat, and the app seeds it from the values
// so a comparison always shows the same interval), and the verdict between two configurations — the
// 95 % confidence interval of their ratio B/A, given only from enough runs a side.

import { median } from '../common/median.ts';

export type Random = () => number;

/** A small, fast, seeded PRNG (mulberry32): uniform in [0, 1). */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A seed derived from the values themselves, so one comparison always yields the same interval. */
export function seedFrom(values: readonly number[]): number {
  let hash = 2166136261;
  for (const value of values) {
    const text = String(value);
    for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619);
  }
  return hash >>> 0;
}

/** The q-quantile (0..1) of sorted values, interpolated linearly. */
function quantile(sorted: readonly number[], q: number): number {
  const position = (sorted.length - 1) * q;
  const low = Math.floor(position);
  const high = Math.ceil(position);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (position - low);
}

function resampledMedian(values: readonly number[], random: Random): number {
  const sample = new Array<number>(values.length);
  for (let i = 0; i < values.length; i++) sample[i] = values[Math.floor(random() * values.length)]!;
  return median(sample);
}

export const BOOTSTRAP_RESAMPLES = 2000;

export interface MedianInterval {
  n: number;
  median: number;
  /** The 95 % interval; equal to the median when there is one value (nothing to resample). */
  low: number;
  high: number;
}

export function bootstrapMedian(values: readonly number[], random: Random, resamples = BOOTSTRAP_RESAMPLES): MedianInterval {
  const center = median(values);
  if (values.length < 2) return { n: values.length, median: center, low: center, high: center };
  const medians = Array.from({ length: resamples }, () => resampledMedian(values, random)).sort((a, b) => a - b);
  return { n: values.length, median: center, low: quantile(medians, 0.025), high: quantile(medians, 0.975) };
}

/** Runs each side needs before any verdict is given: below this the interval is too unreliable. */
export const MIN_RUNS_FOR_VERDICT = 5;

export type VerdictKind = 'higher' | 'lower' | 'no-difference' | 'too-few' | 'no-ratio';

/**
 * How configuration B compares with A on one metric: the ratio B/A of the geometric means of the
 * runs with its 95 % confidence interval, and the verdict in words. `low`/`high` are null when no
 * verdict is given (too few runs, or a value ≤ 0 that has no logarithm).
 */
export interface RatioVerdict {
  nA: number;
  nB: number;
  ratio: number | null;
  low: number | null;
  high: number | null;
  kind: VerdictKind;
  /** e.g. "B is 1.32× A (95 % CI 1.18–1.47×)", "no difference shown (0.96–1.05×)". */
  text: string;
}

// --- Student's t, for the interval ----------------------------------------------------------------

function logGamma(x: number): number {
  // Lanczos (g = 7, n = 9): ~15 digits for x > 0.
  const c = [0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const z = x - 1;
  let sum = c[0]!;
  for (let i = 1; i < 9; i++) sum += c[i]! / (z + i);
  const t = z + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
}

/** Continued fraction of the incomplete beta function (modified Lentz). */
function betaFraction(a: number, b: number, x: number): number {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  d = 1 / (Math.abs(d) < tiny ? tiny : d);
  let h = d;
  for (let m = 1; m <= 300; m++) {
    const m2 = 2 * m;
    for (const numerator of [(m * (b - m) * x) / ((a + m2 - 1) * (a + m2)), (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1))]) {
      d = 1 + numerator * d;
      d = 1 / (Math.abs(d) < tiny ? tiny : d);
      c = 1 + numerator / c;
      if (Math.abs(c) < tiny) c = tiny;
      h *= d * c;
    }
    if (Math.abs(d * c - 1) < 1e-14) break;
  }
  return h;
}

/** The regularized incomplete beta function I_x(a, b). */
function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  return x < (a + 1) / (a + b + 2) ? (front * betaFraction(a, b, x)) / a : 1 - (front * betaFraction(b, a, 1 - x)) / b;
}

/** P(T ≤ t) for Student's t with `df` (not necessarily whole) degrees of freedom. */
export function studentTCdf(t: number, df: number): number {
  const tail = 0.5 * incompleteBeta(df / (df + t * t), df / 2, 0.5);
  return t >= 0 ? 1 - tail : tail;
}

/** The t with P(T ≤ t) = p, by bisection (monotone, and exact enough for an interval's ends). */
export function studentTQuantile(p: number, df: number): number {
  let low = -1e3;
  let high = 1e3;
  for (let i = 0; i < 200 && high - low > 1e-10; i++) {
    const mid = (low + high) / 2;
    if (studentTCdf(mid, df) < p) low = mid;
    else high = mid;
  }
  return (low + high) / 2;
}

// --- The verdict -----------------------------------------------------------------------------------

function meanAndVariance(values: readonly number[]): { mean: number; variance: number } {
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
  const variance = values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (values.length - 1);
  return { mean, variance };
}

const times = (ratio: number) => `${ratio.toFixed(2)}×`;

/** A ratio (geometric mean) with its confidence interval. */
export interface PairedRatio {
  ratio: number;
  low: number;
  high: number;
}

/**
 * The geometric mean of paired ratios (each B over its own A, run side by side) with a t interval
 * on their logarithms, n − 1 degrees of freedom: pairing takes out what drifts between pairs, so a
 * small difference shows with fewer runs than two independent samples need. Null below two pairs
 * or with a ratio that has no logarithm.
 */
export function pairedRatioInterval(ratios: readonly number[], level = 0.95): PairedRatio | null {
  if (ratios.length < 2 || ratios.some((ratio) => !(ratio > 0) || !Number.isFinite(ratio))) return null;
  const { mean, variance } = meanAndVariance(ratios.map(Math.log));
  const se = Math.sqrt(variance / ratios.length);
  const t = se === 0 ? 0 : studentTQuantile(1 - (1 - level) / 2, ratios.length - 1);
  return { ratio: Math.exp(mean), low: Math.exp(mean - t * se), high: Math.exp(mean + t * se) };
}

/**
 * B/A on one metric with a 95 % interval: Welch's t interval of the difference of the mean
 * logarithms, taken back with exp — the ratio of geometric means. Why this and not a bootstrap: at
 * 5 runs a side a percentile bootstrap's interval is too narrow (it resamples only 5 values; its
 * coverage is nearer 85 % than 95 %), so it calls identical configurations different too often;
 * the t interval on logs keeps its 95 % at small n for normal and log-normal run-to-run noise (the
 * log makes multiplicative noise symmetric; Welch does not assume equal variances). Kalibera and
 * Jones ("Rigorous benchmarking in reasonable time") recommend reporting exactly such a ratio CI.
 * No verdict below MIN_RUNS_FOR_VERDICT runs a side.
 */
export function ratioVerdict(
  a: readonly number[],
  b: readonly number[],
  options: { minRuns?: number; level?: number; names?: { a: string; b: string } } = {},
): RatioVerdict {
  const names = options.names ?? { a: 'A', b: 'B' };
  const minRuns = options.minRuns ?? MIN_RUNS_FOR_VERDICT;
  const level = options.level ?? 0.95;
  const base = { nA: a.length, nB: b.length };
  if (a.some((value) => !(value > 0)) || b.some((value) => !(value > 0))) {
    return { ...base, ratio: null, low: null, high: null, kind: 'no-ratio', text: 'no ratio: a run measured 0 or nothing' };
  }
  const logA = a.map(Math.log);
  const logB = b.map(Math.log);
  const ratio = a.length > 0 && b.length > 0 ? Math.exp(logB.reduce((s, v) => s + v, 0) / b.length - logA.reduce((s, v) => s + v, 0) / a.length) : null;
  if (a.length < minRuns || b.length < minRuns || a.length < 2 || b.length < 2) {
    return { ...base, ratio, low: null, high: null, kind: 'too-few', text: `too few runs for a verdict (n = ${a.length} and ${b.length}; ${minRuns} a side needed)` };
  }
  const sa = meanAndVariance(logA);
  const sb = meanAndVariance(logB);
  const va = sa.variance / a.length;
  const vb = sb.variance / b.length;
  const se = Math.sqrt(va + vb);
  const diff = sb.mean - sa.mean;
  // Welch–Satterthwaite degrees of freedom; with no spread at all the interval is the point itself.
  const df = se === 0 ? Infinity : (va + vb) ** 2 / (va ** 2 / (a.length - 1) + vb ** 2 / (b.length - 1));
  const t = se === 0 ? 0 : studentTQuantile(1 - (1 - level) / 2, df);
  const low = Math.exp(diff - t * se);
  const high = Math.exp(diff + t * se);
  const interval = `${low.toFixed(2)}–${times(high)}`;
  const percent = `${Math.round(level * 100)} % CI`;
  if (low > 1) return { ...base, ratio, low, high, kind: 'higher', text: `${names.b} is ${times(ratio!)} ${names.a} (${percent} ${interval})` };
  if (high < 1) return { ...base, ratio, low, high, kind: 'lower', text: `${names.b} is ${times(ratio!)} ${names.a} (${percent} ${interval})` };
  return { ...base, ratio, low, high, kind: 'no-difference', text: `no difference shown (${interval})` };
}
