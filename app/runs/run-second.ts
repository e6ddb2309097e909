// One second of a run as Benchlab keeps it: one client's interval with its books, quick
// percentiles, encoded HDR histogram and flat client/server metric maps. The run service builds it
// from an agent line and stores it; the store gives back exactly this shape; summaries, verdicts and
// chart points are all computed from it, so what is shown live is what is read back later.

import type { RequestPhases } from './agent-protocol.ts';
import type { BottleneckSecond } from './bottleneck.ts';
import type { SummarySecond } from './run-summary.ts';
import type { SecondForSteadiness } from './steady-state.ts';

/** `warmup` seconds are charted but never stored; `drain` is the answers due after the window. */
export type SecondPhase = 'warmup' | 'measure' | 'drain';

export interface RunSecond {
  /** The second's index within its run (stored seconds count from 0). */
  second: number;
  clientIndex: number;
  phase: SecondPhase;
  /** Requests scheduled in the interval; null for rows stored before the books were kept. */
  scheduled: number | null;
  notSent: Record<string, number>;
  /** Unresolved at the end of the interval. */
  inFlight: number | null;
  requests: number;
  bytes: number;
  errors: Record<string, number>;
  statusClasses: Record<string, number>;
  p50Us: number | null;
  p90Us: number | null;
  p99Us: number | null;
  maxUs: number | null;
  /** The interval's HDR histogram, encoded (compressed base64); null when read without them. */
  histogram: string | null;
  /**
   * The interval's connect, waiting and processing (histograms null when read without them);
   * null or absent for seconds recorded before they were measured.
   */
  phases?: RequestPhases | null;
  /** The client's readings, with `at` (the second's end, epoch ms) and `durationMs`. */
  clientMetrics: Record<string, number> | null;
  /** The server's latest reading (≤ 1 s old), TCP states as `tcp.<STATE>`. */
  serverMetrics: Record<string, number> | null;
}

/** What a second lasted as recorded: 1000 ms, less for a cut-short last one; 1000 for rows without it. */
export function durationOf(second: RunSecond): number {
  return second.clientMetrics?.durationMs ?? 1000;
}

/**
 * When a run's stored seconds end (epoch ms): the latest client clock `at` among them, else counted
 * from the run's start past its warm-up; null when nothing was stored (or the run never started).
 */
export function storedSecondsEndMs(seconds: readonly RunSecond[], run: { startedAtMs: number | null; warmupS: number }): number | null {
  let end: number | null = null;
  for (const second of seconds) {
    const at = second.clientMetrics?.at ?? (run.startedAtMs === null ? null : run.startedAtMs + (run.warmupS + second.second) * 1000 + durationOf(second));
    if (at !== null && (end === null || at > end)) end = at;
  }
  return end;
}

/** A second as the summary adds it. */
export function summarySecondOf(second: RunSecond): SummarySecond {
  return {
    phase: second.phase === 'drain' ? 'drain' : 'measure',
    scheduled: second.scheduled,
    requests: second.requests,
    bytes: second.bytes,
    durationMs: durationOf(second),
    errors: second.errors,
    notSent: second.notSent,
    inFlight: second.inFlight,
    status: second.statusClasses,
    histogram: second.histogram,
    phases: second.phases ?? null,
  };
}

/**
 * The measured window second by second, several clients of one second taken together: counters
 * added, the slowest client's p50, p99 and readings stand for the second (the server's reading is
 * the same for all of them). The verdicts (bottleneck, steadiness) read this, with no histogram to
 * decode; what is drawn or exported is merged exactly instead (merge-seconds.ts).
 */
export interface WindowSecond extends BottleneckSecond, SecondForSteadiness {
  second: number;
  p99Us: number | null;
}

export function windowSecondOf(second: RunSecond): WindowSecond {
  return {
    second: second.second,
    requests: second.requests,
    durationMs: durationOf(second),
    p50Us: second.p50Us,
    p99Us: second.p99Us,
    notSent: second.notSent,
    errors: second.errors,
    clientMetrics: second.clientMetrics,
    serverMetrics: second.serverMetrics,
  };
}

/** Adds one more client's interval into the window second it belongs to. */
export function mergeWindowSecond(into: WindowSecond, other: WindowSecond): WindowSecond {
  return {
    second: into.second,
    requests: into.requests + other.requests,
    durationMs: Math.max(into.durationMs, other.durationMs),
    p50Us: maxOrNull(into.p50Us, other.p50Us),
    p99Us: maxOrNull(into.p99Us, other.p99Us),
    notSent: addCounts(into.notSent ?? {}, other.notSent ?? {}),
    errors: addCounts(into.errors ?? {}, other.errors ?? {}),
    clientMetrics: into.clientMetrics && other.clientMetrics ? maxEach(into.clientMetrics, other.clientMetrics) : (into.clientMetrics ?? other.clientMetrics),
    serverMetrics: into.serverMetrics ?? other.serverMetrics,
  };
}

function maxOrNull(a: number | null, b: number | null): number | null {
  if (a === null) return b;
  if (b === null) return a;
  return Math.max(a, b);
}

function addCounts(a: Readonly<Record<string, number>>, b: Readonly<Record<string, number>>): Record<string, number> {
  const sum: Record<string, number> = { ...a };
  for (const [key, count] of Object.entries(b)) sum[key] = (sum[key] ?? 0) + count;
  return sum;
}

function maxEach(a: Readonly<Record<string, number>>, b: Readonly<Record<string, number>>): Record<string, number> {
  const max: Record<string, number> = { ...a };
  for (const [key, value] of Object.entries(b)) max[key] = Math.max(max[key] ?? value, value);
  return max;
}
