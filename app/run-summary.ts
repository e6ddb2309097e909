// A run's result in the seeds' columns (requests/s, transfer/s, mean, std dev, p50/p75/p90/p99/
// p99.9/max, latency bands, errors by kind, failed), computed from per-second samples by adding
// their interval histograms and counters — never by averaging per-second percentiles.

import { z } from 'zod';
import { countBands, createLatencyHistogram, decodeHistogram, latencyStats, type LatencyHistogram } from './hdr.ts';

export const ERROR_KINDS = ['timeout', 'refused', 'reset', 'non2xx', 'other'] as const;
export type ErrorKind = (typeof ERROR_KINDS)[number];
export type ErrorCounts = Record<ErrorKind, number>;

export const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'] as const;
export type StatusClass = (typeof STATUS_CLASSES)[number];
export type StatusCounts = Record<StatusClass, number>;

export function emptyErrors(): ErrorCounts {
  return { timeout: 0, refused: 0, reset: 0, non2xx: 0, other: 0 };
}

export function emptyStatus(): StatusCounts {
  return { '1xx': 0, '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0 };
}

export const LatencyBand = z.object({
  label: z.string(),
  fromMs: z.number().nullable(),
  toMs: z.number().nullable(),
  count: z.number(),
  /** Share of all responses with a latency, 0..1. */
  share: z.number(),
});
export type LatencyBand = z.infer<typeof LatencyBand>;

export const RunSummary = z.object({
  /** Seconds of measured load (the last one may be partial). */
  seconds: z.number(),
  requests: z.number(),
  bytes: z.number(),
  requestsPerSecond: z.number(),
  bytesPerSecond: z.number(),
  meanUs: z.number().nullable(),
  stdDevUs: z.number().nullable(),
  p50Us: z.number().nullable(),
  p75Us: z.number().nullable(),
  p90Us: z.number().nullable(),
  p99Us: z.number().nullable(),
  p999Us: z.number().nullable(),
  maxUs: z.number().nullable(),
  bands: z.array(LatencyBand),
  errors: z.record(z.string(), z.number()),
  status: z.record(z.string(), z.number()),
  /** Requests that did not succeed: every error kind, non-2xx answers included (the seeds' KO / failed). */
  failed: z.number(),
});
export type RunSummary = z.infer<typeof RunSummary>;

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

function formatMs(ms: number): string {
  return Number.isInteger(ms) ? String(ms) : ms.toFixed(1);
}

export function bandLabels(boundariesMs: readonly number[]): string[] {
  if (boundariesMs.length === 0) return ['all'];
  return [
    `< ${formatMs(boundariesMs[0]!)} ms`,
    ...boundariesMs.slice(1).map((to, i) => `${formatMs(boundariesMs[i]!)}–${formatMs(to)} ms`),
    `≥ ${formatMs(boundariesMs[boundariesMs.length - 1]!)} ms`,
  ];
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
