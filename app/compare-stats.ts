// Statistics for repeated runs of one configuration: the median, its 95 % bootstrap confidence
// interval (percentile method), and whether two configurations differ significantly (a bootstrap of
// the difference of medians whose 95 % interval excludes 0). The random source is injected so tests
// are repeatable; the app seeds it from the inputs so the same comparison always shows the same CI.

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

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
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

export interface Difference {
  /** Median of b minus median of a. */
  delta: number;
  low: number;
  high: number;
  /** The 95 % interval of the difference excludes 0: the difference is unlikely to be noise. */
  significant: boolean;
}

/**
 * Bootstrap of the difference of medians (b − a). Needs at least two values on each side: with one
 * run of a configuration nothing says how much it varies, so nothing can be called significant.
 */
export function bootstrapDifference(a: readonly number[], b: readonly number[], random: Random, resamples = BOOTSTRAP_RESAMPLES): Difference | null {
  if (a.length < 2 || b.length < 2) return null;
  const deltas = Array.from({ length: resamples }, () => resampledMedian(b, random) - resampledMedian(a, random)).sort((x, y) => x - y);
  const low = quantile(deltas, 0.025);
  const high = quantile(deltas, 0.975);
  return { delta: median(b) - median(a), low, high, significant: low > 0 || high < 0 };
}
