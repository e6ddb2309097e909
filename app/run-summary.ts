// A run's result in the seeds' columns, computed from per-second samples by adding their interval
// histograms and counters exactly — never by averaging per-second percentiles. The result's shape
// (schema, kinds, band labels) is in run-summary-schema.ts and re-exported here.

import { countBands, createLatencyHistogram, decodeHistogram, latencyStats, type LatencyHistogram } from './hdr.ts';
import { bandLabels, emptyErrors, emptyStatus, type RunSummary } from './run-summary-schema.ts';

export * from './run-summary-schema.ts';

/** What a summary needs of one second of one client. */
export interface SummarySecond {
  requests: number;
  bytes: number;
  /** Length of the interval in ms: 1000, less for a cut-short last second. */
  durationMs: number;
  errors: Partial<Record<string, number>>;
  status: Partial<Record<string, number>>;
  histogram: string | LatencyHistogram | null;
}

/** Adds the seconds' histograms and counters into one accumulator (exact). */
export class SummaryAccumulator {
  readonly histogram: LatencyHistogram = createLatencyHistogram();
  requests = 0;
  bytes = 0;
  durationMs = 0;
  readonly errors: Record<string, number> = emptyErrors();
  readonly status: Record<string, number> = emptyStatus();
  /** Seconds of several clients at the same index count once in duration. */
  readonly #secondsSeen = new Map<number, number>();

  add(second: SummarySecond, index?: number): void {
    this.requests += second.requests;
    this.bytes += second.bytes;
    if (index === undefined) this.durationMs += second.durationMs;
    else {
      const before = this.#secondsSeen.get(index) ?? 0;
      if (second.durationMs > before) {
        this.durationMs += second.durationMs - before;
        this.#secondsSeen.set(index, second.durationMs);
      }
    }
    for (const [kind, count] of Object.entries(second.errors)) this.errors[kind] = (this.errors[kind] ?? 0) + (count ?? 0);
    for (const [kind, count] of Object.entries(second.status)) this.status[kind] = (this.status[kind] ?? 0) + (count ?? 0);
    if (second.histogram) this.histogram.add(typeof second.histogram === 'string' ? decodeHistogram(second.histogram) : second.histogram);
  }

  summary(bucketsMs: readonly number[]): RunSummary {
    const seconds = this.durationMs / 1000;
    const stats = latencyStats(this.histogram);
    const counts = countBands(
      this.histogram,
      bucketsMs.map((ms) => ms * 1000),
    );
    const labels = bandLabels(bucketsMs);
    const withLatency = this.histogram.totalCount;
    const bands = counts.map((count, i) => ({
      label: labels[i] ?? '',
      fromMs: i === 0 ? null : bucketsMs[i - 1]!,
      toMs: i < bucketsMs.length ? bucketsMs[i]! : null,
      count,
      share: withLatency === 0 ? 0 : count / withLatency,
    }));
    const failed = Object.values(this.errors).reduce((sum, count) => sum + count, 0);
    return {
      seconds,
      requests: this.requests,
      bytes: this.bytes,
      requestsPerSecond: seconds > 0 ? this.requests / seconds : 0,
      bytesPerSecond: seconds > 0 ? this.bytes / seconds : 0,
      meanUs: stats.meanUs,
      stdDevUs: stats.stdDevUs,
      p50Us: stats.p50Us,
      p75Us: stats.p75Us,
      p90Us: stats.p90Us,
      p99Us: stats.p99Us,
      p999Us: stats.p999Us,
      maxUs: stats.maxUs,
      bands,
      errors: { ...this.errors },
      status: { ...this.status },
      failed,
    };
  }
}

export function summarize(seconds: Iterable<SummarySecond>, bucketsMs: readonly number[]): RunSummary {
  const accumulator = new SummaryAccumulator();
  for (const second of seconds) accumulator.add(second);
  return accumulator.summary(bucketsMs);
}
