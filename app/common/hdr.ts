// Latency histograms as the measurement rules of docs/architecture.md define them: microseconds, HDR with 3
// significant digits over 1 µs–60 s. Owns creating, recording (clamped), encoding to the compressed
// base64 form that crosses the wire and the store, decoding, and exact merging by adding counts —
// the only way run totals are made (percentiles are never averaged).

import * as hdr from 'hdr-histogram-js';

export type LatencyHistogram = hdr.JsHistogram;

export const LOWEST_US = 1;
export const HIGHEST_US = 60_000_000;
export const SIGNIFICANT_DIGITS = 3;

export function createLatencyHistogram(): LatencyHistogram {
  // Plain JS (no WebAssembly) so the same code runs in the agent, main/ and the renderer alike.
  return hdr.build({
    lowestDiscernibleValue: LOWEST_US,
    highestTrackableValue: HIGHEST_US,
    numberOfSignificantValueDigits: SIGNIFICANT_DIGITS,
    bitBucketSize: 32,
    autoResize: false,
    useWebAssembly: false,
  }) as LatencyHistogram;
}

/** Records one latency; values outside 1 µs–60 s are clamped rather than thrown away or fatal. */
export function recordLatencyUs(histogram: LatencyHistogram, micros: number): void {
  const value = Number.isFinite(micros) ? Math.round(micros) : HIGHEST_US;
  histogram.recordValue(Math.min(HIGHEST_US, Math.max(LOWEST_US, value)));
}

export function encodeHistogram(histogram: LatencyHistogram): string {
  return hdr.encodeIntoCompressedBase64(histogram);
}

/** The histogram as encoded, in the encoder's range (add it into a standard one before anything else). */
function decodeAsEncoded(encoded: string): LatencyHistogram {
  return hdr.decodeFromCompressedBase64(encoded, 32, false) as LatencyHistogram;
}

/** Decodes a histogram produced by encodeHistogram; throws on anything else. */
export function decodeHistogram(encoded: string): LatencyHistogram {
  // Decoding keeps the encoder's range: re-home it in our standard shape so merges stay exact.
  const standard = createLatencyHistogram();
  standard.add(decodeAsEncoded(encoded));
  return standard;
}

/** One histogram holding the sum of all encoded ones (null entries, seconds without responses, are skipped). */
export function mergeEncodedHistograms(encoded: Iterable<string | null>): LatencyHistogram {
  const total = createLatencyHistogram();
  // Added straight into the standard total: the same re-homing as decodeHistogram, once instead of twice.
  for (const item of encoded) if (item) total.add(decodeAsEncoded(item));
  return total;
}

/** Counts per latency band: `boundariesUs` [a, b] gives [< a, a..b, ≥ b]. Within HDR resolution (0.1 %). */
export function countBands(histogram: LatencyHistogram, boundariesUs: readonly number[]): number[] {
  const counts = new Array<number>(boundariesUs.length + 1).fill(0);
  const iterator = histogram.recordedValuesIterator;
  iterator.reset();
  while (iterator.hasNext()) {
    const step = iterator.next();
    // The lowest value this bucket stands for decides its band, so 799.9 ms never counts as 800 ms.
    const value = histogram.lowestEquivalentValue(step.valueIteratedTo);
    let band = 0;
    while (band < boundariesUs.length && value >= boundariesUs[band]!) band++;
    counts[band] = (counts[band] ?? 0) + step.countAtValueIteratedTo;
  }
  return counts;
}

export interface LatencyStats {
  count: number;
  meanUs: number | null;
  stdDevUs: number | null;
  minUs: number | null;
  p50Us: number | null;
  p75Us: number | null;
  p90Us: number | null;
  p99Us: number | null;
  p999Us: number | null;
  maxUs: number | null;
}

/** The latency figures a summary shows: the stats without the count and the minimum. */
export type LatencyFigures = Omit<LatencyStats, 'count' | 'minUs'>;

/** A second's latency columns. */
export type IntervalPercentiles = Pick<LatencyStats, 'p50Us' | 'p90Us' | 'p99Us' | 'maxUs'>;

/**
 * A second's columns alone, as latencyStats gives them: without the mean and deviation, which walk
 * every recorded value (a hundred times the cost, felt when thousands of seconds are merged).
 */
export function intervalPercentiles(histogram: LatencyHistogram): IntervalPercentiles {
  if (histogram.totalCount === 0) return { p50Us: null, p90Us: null, p99Us: null, maxUs: null };
  return {
    p50Us: histogram.getValueAtPercentile(50),
    p90Us: histogram.getValueAtPercentile(90),
    p99Us: histogram.getValueAtPercentile(99),
    // Reported at bucket edges, so a merged histogram and one recorded directly say the same.
    maxUs: histogram.highestEquivalentValue(histogram.maxValue),
  };
}

/** The seeds' latency columns, from one (usually merged) histogram. Nulls when it is empty. */
export function latencyStats(histogram: LatencyHistogram): LatencyStats {
  const count = histogram.totalCount;
  if (count === 0) {
    return { count, meanUs: null, stdDevUs: null, minUs: null, p50Us: null, p75Us: null, p90Us: null, p99Us: null, p999Us: null, maxUs: null };
  }
  const at = (percentile: number) => histogram.getValueAtPercentile(percentile);
  const { p50Us, p90Us, p99Us, maxUs } = intervalPercentiles(histogram);
  return {
    count,
    meanUs: histogram.mean,
    stdDevUs: histogram.stdDeviation,
    minUs: histogram.lowestEquivalentValue(histogram.minNonZeroValue),
    p50Us,
    p75Us: at(75),
    p90Us,
    p99Us,
    p999Us: at(99.9),
    maxUs,
  };
}
