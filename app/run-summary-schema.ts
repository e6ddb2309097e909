// The shape of a run's result in the seeds' columns (requests/s, transfer/s, mean, std dev,
// p50/p75/p90/p99/p99.9/max, latency bands, errors by kind, failed), its error and status kinds and
// band labels — without the HDR library, so the UI can read summaries without loading it.
// Computing a summary is run-summary.ts's.

import { z } from 'zod';

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
