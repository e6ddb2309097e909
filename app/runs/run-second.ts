// One second of a run as Benchlab keeps it: one client's interval with its books, quick
// percentiles, encoded HDR histogram and the client's and server's typed readings. It is made from an
// agent line here (`runSecondOf`: the line's counts kept under their own names) and stored as it is;
// the store gives back exactly this shape; summaries, verdicts and chart points are all computed from
// it, so what is shown live is what is read back later.

import type { LoadSampleLine, RequestPhases, SecondClientMetrics, SecondServerMetrics, ServerMetrics } from './agent-protocol.ts';
import type { BottleneckSecond } from './bottleneck.ts';
import type { SummarySecond } from './run-summary.ts';
import type { SecondCounts } from './second-kinds.ts';
import type { SecondForSteadiness } from './steady-state.ts';
import { encodeCoreBusy } from './core-busy.ts';

/** `warmup` seconds are charted but never stored; `drain` is the answers due after the window. */
export type SecondPhase = 'warmup' | 'measure' | 'drain';

/** The second's own counts (SECOND_COUNTS) under their names; `scheduled` null for rows stored before the books were kept. */
export interface RunSecond extends Omit<SecondCounts, 'scheduled'> {
  /** The second's index within its run (stored seconds count from 0). */
  second: number;
  clientIndex: number;
  phase: SecondPhase;
  scheduled: number | null;
  notSent: Record<string, number>;
  /** Unresolved at the end of the interval. */
  inFlight: number | null;
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
  clientMetrics: SecondClientMetrics | null;
  /** The server's reading paired with the second (server-readings.ts), TCP states as `tcp.<STATE>`. */
  serverMetrics: SecondServerMetrics | null;
}

/** The fields of an agent line that are not the second's counts under the same name. */
type LineOnly = 'type' | 'second' | 'at' | 'durationMs' | 'status' | 'client';

/** Readings as stored: numbers only (an unknown, null, is left out). */
function numbersOnly(readings: Readonly<Record<string, unknown>>): Record<string, number> {
  const numbers: Record<string, number> = {};
  for (const [key, value] of Object.entries(readings)) if (typeof value === 'number') numbers[key] = value;
  return numbers;
}

/**
 * The server's reading as stored: numbers only, TCP states as `tcp.<STATE>`, and each core's busy
 * share in one string, `coreBusy` (core-busy.ts: read back with `coreCpuOf`).
 */
export function storedServerMetrics(server: ServerMetrics): SecondServerMetrics {
  const { tcp, coreCpu, ...figures } = server;
  const flat: SecondServerMetrics = numbersOnly(figures);
  for (const [state, count] of Object.entries(tcp)) flat[`tcp.${state}`] = count;
  if (coreCpu && coreCpu.length > 0) flat.coreBusy = encodeCoreBusy(coreCpu);
  return flat;
}

/**
 * An agent line as the run second it is stored as: every count and latency of the line under its own
 * name (a count added to the line must be a field of RunSecond too, or this does not compile), the
 * status classes, the client's readings with the second's end on Benchlab's clock (`at` less the
 * client's clock offset) and length, and the server's reading of that second (null: a gap).
 */
export function runSecondOf(line: LoadSampleLine, server: ServerMetrics | null, place: { second: number; clientIndex: number; offsetMs: number }): RunSecond {
  const { type: _type, second: _second, at, durationMs, status, client, ...counts } = line;
  const kept: Pick<RunSecond, keyof Omit<LoadSampleLine, LineOnly>> = counts;
  return {
    ...kept,
    second: place.second,
    clientIndex: place.clientIndex,
    statusClasses: status,
    clientMetrics: numbersOnly({ ...client, at: at - place.offsetMs, durationMs }),
    serverMetrics: server ? storedServerMetrics(server) : null,
  };
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
 * A second of the measured window as the verdicts (bottleneck, steadiness) read it: one client's, or
 * several clients' of one index merged exactly (merge-seconds.ts) before it is read here.
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
