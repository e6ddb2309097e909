// The shape of a run's result in the seeds' columns (requests/s, transfer/s, mean, std dev,
// p50/p75/p90/p99/p99.9/max, latency bands, errors by kind, failed), its books (every scheduled
// request in exactly one bucket: answered, error, timed out, not sent) and band labels, with the
// kinds the books count by (second-kinds.ts, re-exported) — without the HDR library, so the UI can
// read summaries without loading it. Computing a summary is run-summary.ts's.

import { z } from 'zod';

export * from './second-kinds.ts';

/** Adds counts of the given kinds only: a stored `non2xx` from before the books is no error kind. */
export function sumKinds(counts: Partial<Record<string, number>>, kinds: readonly string[]): number {
  let total = 0;
  for (const kind of kinds) total += counts[kind] ?? 0;
  return total;
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

/**
 * Where every scheduled request of a run ended: `scheduled = answered + errors + timeouts + notSent`
 * once nothing is in flight. Null in summaries of runs recorded before Benchlab kept the books.
 */
export const RunBooks = z.object({
  scheduled: z.number(),
  /** Answered, by any status (non-2xx answers are answered, and also counted as failed). */
  answered: z.number(),
  /** No answer, by a connection error (refused, reset, closed, other). */
  errors: z.number(),
  timeouts: z.number(),
  notSent: z.number(),
  /** Still unresolved where the record ends (a run cut short); 0 for a run that ended normally. */
  inFlight: z.number(),
  balanced: z.boolean(),
});
export type RunBooks = z.infer<typeof RunBooks>;

/** One phase of the requests as ab's report gives it (µs): how many, min, mean, std dev, median, p99, max. */
export const PhaseStats = z.object({
  count: z.number(),
  minUs: z.number().nullable(),
  meanUs: z.number().nullable(),
  stdDevUs: z.number().nullable(),
  p50Us: z.number().nullable(),
  p99Us: z.number().nullable(),
  maxUs: z.number().nullable(),
});
export type PhaseStats = z.infer<typeof PhaseStats>;

/**
 * A run's requests in ab's rows: `connect` (each connection established: start of the connect to
 * established, `count` = connections), `waiting` (each answer: last byte written to first byte),
 * `processing` (each answer: its total less the connect it paid), `total` (the headline latency).
 * `withConnect` of the `answered` answers opened their own connection: their total includes it.
 */
export const LatencyPhases = z.object({
  connect: PhaseStats,
  waiting: PhaseStats,
  processing: PhaseStats,
  total: PhaseStats,
  answered: z.number(),
  withConnect: z.number(),
});
export type LatencyPhases = z.infer<typeof LatencyPhases>;

/** A run whose throughput or median latency drifted over its window is "not steady", with the evidence. */
export const Steadiness = z.object({ steady: z.boolean(), message: z.string() });
export type Steadiness = z.infer<typeof Steadiness>;

/** RSS of the server process (with its children) over the run: lowest, highest and last reading, in bytes. */
export const ServerMemory = z.object({ minBytes: z.number(), maxBytes: z.number(), endBytes: z.number() });
export type ServerMemory = z.infer<typeof ServerMemory>;

/**
 * Why the server ran as it did, over the measured window (server-runtime.ts): medians of the per-second
 * readings, the highest thread count, and the TCP trouble added up. Each figure null when no second read it.
 */
export const ServerRuntime = z.object({
  /** Seconds with a server reading the figures come from. */
  seconds: z.number(),
  threadsMax: z.number().nullable(),
  busiestCoreMedian: z.number().nullable(),
  runQueueMedian: z.number().nullable(),
  voluntarySwitchesPerSMedian: z.number().nullable(),
  involuntarySwitchesPerSMedian: z.number().nullable(),
  tcpRetransmits: z.number().nullable(),
  listenOverflows: z.number().nullable(),
  /**
   * The server's GC over the window, a JVM's from its GC log, a Node server's from its monitor (absent
   * from summaries of older Benchlab, null when no second read it): pauses added up, the share of the read seconds' time spent in them (0..1), the
   * longest pause and the highest heap after a GC.
   */
  gcPauses: z.number().nullable().optional(),
  gcPauseShare: z.number().nullable().optional(),
  gcLongestPauseMs: z.number().nullable().optional(),
  heapAfterGcMaxBytes: z.number().nullable().optional(),
  /** A Node server's event-loop delay: the median of the seconds' p99 and the worst delay (ms); absent or null as above. */
  eventLoopDelayP99MsMedian: z.number().nullable().optional(),
  eventLoopDelayMaxMs: z.number().nullable().optional(),
  /** The median of the seconds' runs of the event-loop monitor's own timers: up to that many of the voluntary switches are its. */
  monitorWakesPerSMedian: z.number().nullable().optional(),
});
export type ServerRuntime = z.infer<typeof ServerRuntime>;

export const RunSummary = z.object({
  /** Seconds of the measured window (the last one may be partial); the drain is not in it. */
  seconds: z.number(),
  /** Answered requests, the drain's included. */
  requests: z.number(),
  bytes: z.number(),
  /** Answers that arrived within the measured window, per second of it. */
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
  /** Requests without an answer, by kind (timeouts included). */
  errors: z.record(z.string(), z.number()),
  /** Scheduled requests never sent, by reason. */
  notSent: z.record(z.string(), z.number()).default({}),
  status: z.record(z.string(), z.number()),
  /** Answers with a status other than 2xx. */
  non2xx: z.number().default(0),
  /** Requests that did not succeed: non-2xx answers, errors and timeouts (the seeds' KO / failed); not-sent apart. */
  failed: z.number(),
  /** Timed-out requests are in the latency histogram at the timeout (open model), so a silent server cannot look fast. */
  timeoutsInLatency: z.boolean().default(false),
  /** Length of the drain after the window (answers still due), not counted in `seconds`. */
  drainMs: z.number().default(0),
  books: RunBooks.nullable().default(null),
  /** Whether requests/s and p50 held steady over the measured window (steady-state.ts); null when too short to say or recorded before. */
  steadiness: Steadiness.nullable().default(null),
  /** Connect, waiting, processing and total as ab reports them; null when recorded before they were measured. */
  phases: LatencyPhases.nullable().default(null),
  /** The server process's memory over the run (server-memory.ts); null when the server agent read none, absent in summaries stored before. */
  serverMemory: ServerMemory.nullable().optional(),
  /** Why the server ran as it did (server-runtime.ts); null when the server agent read none, absent in summaries stored before. */
  serverRuntime: ServerRuntime.nullable().optional(),
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
