// The request phases (connect, waiting, processing, as ab reports them) added up exactly: several
// load threads' or clients' intervals merged into one (histograms decoded, added, re-encoded), and a
// run's seconds tallied into the summary's rows. What each phase holds is agent-protocol.ts's
// RequestPhases; what the headline latency includes, in words, is latency-includes.ts's.

import { createLatencyHistogram, encodeHistogram, latencyStats, mergeEncodedHistograms, type LatencyHistogram } from '../common/hdr.ts';
import type { RequestPhases } from './agent-protocol.ts';
import type { LatencyPhases, PhaseStats } from './run-summary-schema.ts';

/** Intervals' phases added exactly; an interval without phases (an older agent) adds nothing. */
export function mergePhases(parts: readonly (RequestPhases | null | undefined)[], options: { histograms?: boolean } = {}): RequestPhases {
  const known = parts.filter((phases): phases is RequestPhases => phases !== null && phases !== undefined);
  const merged = (pick: (phases: RequestPhases) => string | null): string | null => {
    if (options.histograms === false) return null;
    const encoded = known.map(pick).filter((value): value is string => value !== null);
    // One part is already the sum: re-encoding it would say the same.
    if (encoded.length <= 1) return encoded[0] ?? null;
    return encodeHistogram(mergeEncodedHistograms(encoded));
  };
  return {
    connect: merged((phases) => phases.connect),
    waiting: merged((phases) => phases.waiting),
    processing: merged((phases) => phases.processing),
    withConnect: known.reduce((sum, phases) => sum + phases.withConnect, 0),
  };
}

export function phaseStatsOf(histogram: LatencyHistogram): PhaseStats {
  const stats = latencyStats(histogram);
  return { count: stats.count, minUs: stats.minUs, meanUs: stats.meanUs, stdDevUs: stats.stdDevUs, p50Us: stats.p50Us, p99Us: stats.p99Us, maxUs: stats.maxUs };
}

/** A run's phases as its seconds come, added exactly. */
export class PhasesTally {
  readonly #connect = createLatencyHistogram();
  readonly #waiting = createLatencyHistogram();
  readonly #processing = createLatencyHistogram();
  #withConnect = 0;
  /** Some second carried phases: seconds of older agents carry none, and then there is nothing to say. */
  #seen = false;

  add(phases: RequestPhases | null | undefined): void {
    if (!phases) return;
    this.#seen = true;
    this.#withConnect += phases.withConnect;
    for (const [into, encoded] of [
      [this.#connect, phases.connect],
      [this.#waiting, phases.waiting],
      [this.#processing, phases.processing],
    ] as const) {
      if (encoded) into.add(mergeEncodedHistograms([encoded]));
    }
  }

  /** The summary's rows, the total being the run's headline histogram; null when no second carried phases. */
  summary(total: LatencyHistogram): LatencyPhases | null {
    if (!this.#seen) return null;
    return {
      connect: phaseStatsOf(this.#connect),
      waiting: phaseStatsOf(this.#waiting),
      processing: phaseStatsOf(this.#processing),
      total: phaseStatsOf(total),
      answered: this.#waiting.totalCount,
      withConnect: this.#withConnect,
    };
  }
}
