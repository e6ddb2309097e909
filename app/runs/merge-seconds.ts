// Several load clients' seconds made into one, exactly: counts, books and bytes added, the interval
// histograms (the headline's and the request phases') decoded, added and re-encoded, and the percentiles read from the added histogram (never
// averaged). Stored seconds stay per client; every reader that charts, replays, compares or exports
// a run's seconds reads them merged here, and the live run service aligns each client's seconds as
// they arrive (SecondAligner) so the merged point is drawn once every client has given its part.

import { encodeHistogram, intervalPercentiles, mergeEncodedHistograms } from '../common/hdr.ts';
import { CLIENT_METRICS_MERGE, type SecondClientMetrics } from './agent-protocol.ts';
import { mergePhases } from './request-phases.ts';
import type { RunSecond, SecondPhase } from './run-second.ts';
import { SECOND_COUNTS, type SecondCount } from './second-kinds.ts';

/** The clientIndex of a second merged from several clients. */
export const MERGED_CLIENT_INDEX = -1;

/**
 * `histogram: false` leaves the merged histogram out (null) for readers that only draw or write the
 * percentiles: encoding it is most of a merge's cost once the percentiles are read.
 */
export interface MergeOptions {
  histogram?: boolean;
}

const PHASE_ORDER: Record<SecondPhase, number> = { warmup: 0, measure: 1, drain: 2 };

/** Which merged second a client's second belongs to: one per phase and index, one drain per run (its index may differ by client). */
function keyOf(second: RunSecond): string {
  return second.phase === 'drain' ? 'drain' : `${second.phase}:${second.second}`;
}

function compareSeconds(a: RunSecond, b: RunSecond): number {
  return PHASE_ORDER[a.phase] - PHASE_ORDER[b.phase] || a.second - b.second;
}

function addCounts(into: Record<string, number>, counts: Readonly<Record<string, number>>): void {
  for (const [key, count] of Object.entries(counts)) into[key] = (into[key] ?? 0) + count;
}

function sumOrNull(values: readonly (number | null)[]): number | null {
  return values.some((value) => value === null) ? null : values.reduce<number>((sum, value) => sum + value!, 0);
}

/** The seconds' own counts (SECOND_COUNTS) added; one unknown (null: a row older than the count) leaves it unknown. */
function secondCountsOf(seconds: readonly RunSecond[]): Pick<RunSecond, SecondCount> {
  const counts = Object.fromEntries(SECOND_COUNTS.map((name) => [name, sumOrNull(seconds.map((second) => second[name]))]));
  return counts as Pick<RunSecond, SecondCount>;
}

/** The clients' readings of one second as one, by each reading's rule (CLIENT_METRICS_MERGE). */
function mergeClientMetrics(seconds: readonly RunSecond[]): SecondClientMetrics | null {
  const readings = seconds.map((second) => second.clientMetrics).filter((metrics): metrics is SecondClientMetrics => metrics !== null);
  if (readings.length === 0) return null;
  const merged: Record<string, number> = {};
  for (const reading of readings) {
    for (const [key, value] of Object.entries(reading) as Array<[string, number]>) {
      // A reading stored by another version and unknown here keeps the highest, like most.
      const added = CLIENT_METRICS_MERGE[key as keyof SecondClientMetrics] === 'add';
      merged[key] = key in merged ? (added ? merged[key]! + value : Math.max(merged[key]!, value)) : value;
    }
  }
  return merged;
}

/** The slowest client's value: the bound left when the seconds were read without their histograms. */
function highest(values: readonly (number | null)[]): number | null {
  const known = values.filter((value): value is number => value !== null);
  return known.length === 0 ? null : Math.max(...known);
}

/**
 * Several clients' intervals of the same second index and phase (the drain: each client's one), added
 * exactly: counts, books, bytes, histograms decoded, added, re-encoded; percentiles read from the
 * added histogram; durationMs the longest; clientMetrics by CLIENT_METRICS_MERGE (event counts
 * added, every other reading the highest, `at` the latest); serverMetrics the first non-null. Seconds read without their
 * histograms keep the slowest client's percentiles (an upper bound, marked by the null histogram).
 * A lone second is returned as it is, under the merged index.
 */
export function mergeClientSeconds(seconds: readonly RunSecond[], options: MergeOptions = {}): RunSecond {
  const first = seconds[0];
  if (!first) throw new RangeError('mergeClientSeconds needs at least one second');
  const key = keyOf(first);
  if (seconds.some((second) => keyOf(second) !== key)) throw new RangeError('mergeClientSeconds merges seconds of one phase and index only');
  // Nothing to add: the client's own figures, re-read from the same histogram, would be the same.
  if (seconds.length === 1) {
    const lone = { ...first, clientIndex: MERGED_CLIENT_INDEX };
    if (options.histogram !== false) return lone;
    return { ...lone, histogram: null, phases: first.phases ? mergePhases([first.phases], { histograms: false }) : null };
  }
  const notSent: Record<string, number> = {};
  const errors: Record<string, number> = {};
  const statusClasses: Record<string, number> = {};
  for (const second of seconds) {
    addCounts(notSent, second.notSent);
    addCounts(errors, second.errors);
    addCounts(statusClasses, second.statusClasses);
  }
  let latency: Pick<RunSecond, 'p50Us' | 'p90Us' | 'p99Us' | 'maxUs' | 'histogram'>;
  if (seconds.some((second) => second.histogram !== null)) {
    const histogram = mergeEncodedHistograms(seconds.map((second) => second.histogram));
    const keep = options.histogram !== false && histogram.totalCount > 0;
    latency = { ...intervalPercentiles(histogram), histogram: keep ? encodeHistogram(histogram) : null };
  } else {
    latency = {
      p50Us: highest(seconds.map((second) => second.p50Us)),
      p90Us: highest(seconds.map((second) => second.p90Us)),
      p99Us: highest(seconds.map((second) => second.p99Us)),
      maxUs: highest(seconds.map((second) => second.maxUs)),
      histogram: null,
    };
  }
  return {
    second: Math.max(...seconds.map((second) => second.second)),
    clientIndex: MERGED_CLIENT_INDEX,
    phase: first.phase,
    ...secondCountsOf(seconds),
    notSent,
    inFlight: sumOrNull(seconds.map((second) => second.inFlight)),
    errors,
    statusClasses,
    ...latency,
    // Clients of an older agent carry no phases: the phases are what the others measured.
    phases: seconds.some((second) => second.phases) ? mergePhases(seconds.map((second) => second.phases), { histograms: options.histogram !== false }) : null,
    clientMetrics: mergeClientMetrics(seconds),
    serverMetrics: seconds.find((second) => second.serverMetrics !== null)?.serverMetrics ?? null,
  };
}

export interface AlignedSecond {
  merged: RunSecond;
  /** The clients' own seconds it was merged from, by client index. */
  parts: RunSecond[];
}

/** How many clients a run's stored seconds come from. */
export function clientCountOf(seconds: readonly RunSecond[]): number {
  return new Set(seconds.map((second) => second.clientIndex)).size;
}

/**
 * A run's stored seconds (any number of clients) merged per (phase, second), in order, each with the
 * clients' own seconds it was made of (replay draws the per-client breakdown from them). One client's
 * seconds come back as they are, so a one-client run reads exactly as before.
 */
export function mergedWithParts(seconds: readonly RunSecond[], options: MergeOptions = {}): AlignedSecond[] {
  if (clientCountOf(seconds) <= 1) return [...seconds].sort(compareSeconds).map((second) => ({ merged: second, parts: [second] }));
  const groups = new Map<string, RunSecond[]>();
  for (const second of seconds) {
    const key = keyOf(second);
    const group = groups.get(key);
    if (group) group.push(second);
    else groups.set(key, [second]);
  }
  return [...groups.values()]
    .map((group) => {
      const parts = [...group].sort((a, b) => a.clientIndex - b.clientIndex);
      return { merged: mergeClientSeconds(parts, options), parts };
    })
    .sort((a, b) => compareSeconds(a.merged, b.merged));
}

/** A run's stored seconds (any number of clients) as one merged second per (phase, second), in order. */
export function mergedBySecond(seconds: readonly RunSecond[], options: MergeOptions = {}): RunSecond[] {
  return mergedWithParts(seconds, options).map(({ merged }) => merged);
}

/** Live: collects each client's seconds and releases a merged one once every client still running has given it. */
export class SecondAligner {
  readonly #clientCount: number;
  readonly #running = new Set<number>();
  /** Seconds waiting for a client, by key, each with the parts given so far by client index. */
  readonly #held = new Map<string, Map<number, RunSecond>>();
  /** Keys already released: a part arriving for one later (a client that lagged past a lost one) is not drawn twice. */
  readonly #released = new Set<string>();

  constructor(clientCount: number) {
    if (!Number.isInteger(clientCount) || clientCount < 1) throw new RangeError('SecondAligner needs at least one client');
    this.#clientCount = clientCount;
    for (let index = 0; index < clientCount; index++) this.#running.add(index);
  }

  /** Returns the merged seconds that became complete (in order), each with its per-client parts. */
  add(second: RunSecond): AlignedSecond[] {
    if (!Number.isInteger(second.clientIndex) || second.clientIndex < 0 || second.clientIndex >= this.#clientCount) {
      throw new RangeError(`client ${second.clientIndex} is not one of this run's ${this.#clientCount} clients`);
    }
    const key = keyOf(second);
    if (this.#released.has(key)) return [];
    const parts = this.#held.get(key) ?? new Map<number, RunSecond>();
    parts.set(second.clientIndex, second);
    this.#held.set(key, parts);
    return this.#releaseComplete();
  }

  /** A client that ended or was lost: seconds that waited only on it are released. */
  dropClient(clientIndex: number): AlignedSecond[] {
    this.#running.delete(clientIndex);
    return this.#releaseComplete();
  }

  /** Everything still held, released (end of step). */
  flush(): AlignedSecond[] {
    return this.#release(this.#heldInOrder().length);
  }

  #heldInOrder(): Array<[string, Map<number, RunSecond>]> {
    return [...this.#held.entries()].sort(([, a], [, b]) => compareSeconds(a.values().next().value!, b.values().next().value!));
  }

  /**
   * Releases every held second up to the last complete one: each client gives its seconds in order,
   * so a client that has given a later second will never give an earlier one it skipped.
   */
  #releaseComplete(): AlignedSecond[] {
    const held = this.#heldInOrder();
    let lastComplete = -1;
    held.forEach(([, parts], index) => {
      if ([...this.#running].every((client) => parts.has(client))) lastComplete = index;
    });
    return this.#release(lastComplete + 1);
  }

  #release(count: number): AlignedSecond[] {
    return this.#heldInOrder()
      .slice(0, count)
      .map(([key, parts]) => {
        this.#held.delete(key);
        this.#released.add(key);
        const ordered = [...parts.values()].sort((a, b) => a.clientIndex - b.clientIndex);
        return { merged: mergeClientSeconds(ordered), parts: ordered };
      });
  }
}
