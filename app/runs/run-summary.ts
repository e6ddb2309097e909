// A run's result in the seeds' columns and its books, computed from per-second samples by adding
// their interval histograms and counters exactly — never by averaging per-second percentiles. The result's shape
// (schema, kinds, band labels) is in run-summary-schema.ts and re-exported here.

import type { RequestPhases } from './agent-protocol.ts';
import { PhasesTally } from './request-phases.ts';
import { countBands, createLatencyHistogram, decodeHistogram, latencyStats, type LatencyHistogram } from '../common/hdr.ts';
import {
  bandLabels,
  emptyErrors,
  emptyNotSent,
  emptyStatus,
  ERROR_KINDS,
  NOT_SENT_REASONS,
  STATUS_CLASSES,
  sumKinds,
  type RunBooks,
  type RunSummary,
} from './run-summary-schema.ts';

export * from './run-summary-schema.ts';

/** What a summary needs of one interval of one client (a stored sample or an agent line). */
export interface SummarySecond {
  /** `drain`: after the window; its answers count, its time does not. Absent: measured. */
  phase?: 'measure' | 'drain' | undefined;
  /** Null or absent: recorded before Benchlab kept the books (no scheduled count). */
  scheduled?: number | null | undefined;
  requests: number;
  bytes: number;
  /** Length of the interval in ms: 1000, less for a cut-short last second. */
  durationMs: number;
  errors: Partial<Record<string, number>>;
  notSent?: Partial<Record<string, number>> | undefined;
  /** Unresolved at the end of the interval. */
  inFlight?: number | null | undefined;
  status: Partial<Record<string, number>>;
  histogram: string | LatencyHistogram | null;
  /** The interval's connect, waiting and processing; absent or null from older agents. */
  phases?: RequestPhases | null | undefined;
}

/** The books of one interval balance: what was in flight before plus what was scheduled is resolved or still in flight. */
export function intervalBalances(second: SummarySecond, inFlightBefore: number): boolean {
  if (second.scheduled === null || second.scheduled === undefined) return true;
  const resolved = sumKinds(second.status, STATUS_CLASSES) + sumKinds(second.errors, ERROR_KINDS) + sumKinds(second.notSent ?? {}, NOT_SENT_REASONS);
  return inFlightBefore + second.scheduled === resolved + (second.inFlight ?? 0);
}

/** Adds the seconds' histograms and counters into one accumulator (exact). */
export class SummaryAccumulator {
  readonly histogram: LatencyHistogram = createLatencyHistogram();
  requests = 0;
  /** Answers within the measured window (the drain's are in `requests` only). */
  windowRequests = 0;
  bytes = 0;
  windowBytes = 0;
  durationMs = 0;
  drainMs = 0;
  scheduled = 0;
  /** Some interval came without a scheduled count (recorded before the books): no books then. */
  #booksMissing = false;
  /** Each client's latest in-flight count: what is still unresolved is their sum. */
  readonly #lastInFlight = new Map<number, number>();
  readonly errors: Record<string, number> = emptyErrors();
  readonly notSent: Record<string, number> = emptyNotSent();
  readonly status: Record<string, number> = emptyStatus();
  readonly #phases = new PhasesTally();
  /** Seconds of several clients at the same index count once in duration. */
  readonly #secondsSeen = new Map<number, number>();

  /** `index`: the second's index (several clients' seconds of one index count once in duration); `client`: whose it is. */
  add(second: SummarySecond, index?: number, client = 0): void {
    const drain = second.phase === 'drain';
    this.requests += second.requests;
    this.bytes += second.bytes;
    if (drain) this.drainMs = Math.max(this.drainMs, second.durationMs);
    else {
      this.windowRequests += second.requests;
      this.windowBytes += second.bytes;
      if (index === undefined) this.durationMs += second.durationMs;
      else {
        const before = this.#secondsSeen.get(index) ?? 0;
        if (second.durationMs > before) {
          this.durationMs += second.durationMs - before;
          this.#secondsSeen.set(index, second.durationMs);
        }
      }
    }
    if (second.scheduled === null || second.scheduled === undefined) this.#booksMissing = true;
    else {
      this.scheduled += second.scheduled;
      this.#lastInFlight.set(client, second.inFlight ?? 0);
    }
    for (const kind of ERROR_KINDS) this.errors[kind] = (this.errors[kind] ?? 0) + (second.errors[kind] ?? 0);
    for (const [reason, count] of Object.entries(second.notSent ?? {})) this.notSent[reason] = (this.notSent[reason] ?? 0) + (count ?? 0);
    for (const [kind, count] of Object.entries(second.status)) this.status[kind] = (this.status[kind] ?? 0) + (count ?? 0);
    if (second.histogram) this.histogram.add(typeof second.histogram === 'string' ? decodeHistogram(second.histogram) : second.histogram);
    this.#phases.add(second.phases);
  }

  /** The books so far; null when an interval lacked them. */
  books(): RunBooks | null {
    if (this.#booksMissing) return null;
    const answered = sumKinds(this.status, STATUS_CLASSES);
    const timeouts = this.errors.timeout ?? 0;
    const errors = sumKinds(this.errors, ERROR_KINDS) - timeouts;
    const notSent = sumKinds(this.notSent, NOT_SENT_REASONS);
    const inFlight = [...this.#lastInFlight.values()].reduce((sum, count) => sum + count, 0);
    return { scheduled: this.scheduled, answered, errors, timeouts, notSent, inFlight, balanced: this.scheduled === answered + errors + timeouts + notSent + inFlight };
  }

  summary(bucketsMs: readonly number[], options: { timeoutsInLatency?: boolean } = {}): RunSummary {
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
    const answered = sumKinds(this.status, STATUS_CLASSES);
    const non2xx = answered - (this.status['2xx'] ?? 0);
    const failed = non2xx + sumKinds(this.errors, ERROR_KINDS);
    return {
      seconds,
      requests: this.requests,
      bytes: this.bytes,
      requestsPerSecond: seconds > 0 ? this.windowRequests / seconds : 0,
      bytesPerSecond: seconds > 0 ? this.windowBytes / seconds : 0,
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
      notSent: { ...this.notSent },
      status: { ...this.status },
      non2xx,
      failed,
      timeoutsInLatency: options.timeoutsInLatency ?? false,
      drainMs: this.drainMs,
      books: this.books(),
      // Judged over the whole series where the run is finished (steady-state.ts), not per interval.
      steadiness: null,
      phases: this.#phases.summary(this.histogram),
    };
  }
}
