// Per-request results of another tool turned into Benchlab's own seconds: one RunSecond per
// wall-clock second from the earliest request's start, each request counted in the second it ended
// (as Benchlab's clients count an answer in the second it arrives), with a real HDR interval
// histogram (microseconds, the agent's settings: app/common/hdr.ts) and its books — scheduled =
// answered + errors (timeouts apart), nothing in flight, nothing "not sent". Failed requests are
// counted, not timed, as in Benchlab's closed model. The seconds are laid from the earliest start
// among the first lines (files are written in order of start or of end, rarely far apart); a later
// line that started earlier still moves the window's start, which then begins inside its first
// second. Memory stays bounded by the seconds kept open, not by the requests: an old second is
// encoded, and a late line for it waits as a count by latency until the end (or until that count
// grows large), so a file in no time order (ab's -g, sorted by response time) costs no more than one
// in order.

import { createLatencyHistogram, decodeHistogram, encodeHistogram, HIGHEST_US, LOWEST_US, latencyStats, recordLatencyUs, type LatencyHistogram } from '../../common/hdr.ts';
import { emptyErrors, emptyStatus, type ErrorKind } from '../../runs/run-summary-schema.ts';
import { ImportError, type FormatParser, type ImportedResult, type ImportedResultBase, type ImportedSecond } from './imported-result.ts';

export interface ImportedRequest {
  /** When it was sent, epoch ms (or ms from the run's start where the file has no clock). */
  startMs: number;
  latencyUs: number;
  /** The HTTP status of an answer (null: answered, status not in the file), or why there was none. */
  outcome: { status: number | null } | { error: ErrorKind };
  bytes: number;
}

/** A run longer than a week is a wrong timestamp, not a benchmark. */
const MAX_SPAN_S = 7 * 24 * 3600;
/** Seconds kept as live histograms (about 70 KB each); older ones are kept encoded. */
const MAX_OPEN_SECONDS = 256;
/** Requests held before the seconds are laid, to find the earliest start among the first lines. */
const ORIGIN_LINES = 4096;
/** Distinct latencies a sealed second holds for late lines before they are folded into its histogram. */
const MAX_LATE_VALUES = 4096;

interface Bucket {
  answered: number;
  bytes: number;
  errors: Record<string, number>;
  status: Record<string, number>;
  histogram: LatencyHistogram | null;
  encoded: string | null;
  /** Latencies (µs, as recorded) of late lines for a sealed second, by count. */
  late: Map<number, number> | null;
}

function statusClass(status: number): string | null {
  return status >= 100 && status < 600 ? `${Math.floor(status / 100)}xx` : null;
}

export class RequestSeries {
  readonly #buckets = new Map<number, Bucket>();
  readonly #open: number[] = [];
  /** Whether the file lists failed requests too (else no books: scheduled is unknown). */
  readonly #failuresListed: boolean;
  /** Start times to the whole second only (ab's -g): every second counts whole, the last one too. */
  readonly #wholeSeconds: boolean;
  #origin: number | null = null;
  #held: Array<{ request: ImportedRequest; line: number } | { atMs: number; bytes: number; line: number }> = [];
  #earliestStartMs = Number.POSITIVE_INFINITY;
  #lastEndMs = Number.NEGATIVE_INFINITY;
  #count = 0;
  #clamped = 0;
  #folds = 0;

  constructor(options: { failuresListed: boolean; wholeSeconds?: boolean }) {
    this.#failuresListed = options.failuresListed;
    this.#wholeSeconds = options.wholeSeconds ?? false;
  }

  get count(): number {
    return this.#count;
  }

  /** Latencies above the histogram's 60 s, recorded at 60 s. */
  get clamped(): number {
    return this.#clamped;
  }

  /** Times a sealed second's late lines were folded into its histogram (each a decode and an encode). */
  get folds(): number {
    return this.#folds;
  }

  /** When the earliest request started (epoch ms, or ms from the run's start where the file has no clock). */
  get startMs(): number | null {
    return this.#count === 0 ? null : this.#earliestStartMs;
  }

  get lastEndMs(): number | null {
    return this.#count === 0 ? null : this.#lastEndMs;
  }

  add(request: ImportedRequest, line: number): void {
    this.#count++;
    this.#earliestStartMs = Math.min(this.#earliestStartMs, request.startMs);
    this.#lastEndMs = Math.max(this.#lastEndMs, request.startMs + request.latencyUs / 1000);
    if (this.#origin === null) {
      this.#held.push({ request, line });
      if (this.#held.length >= ORIGIN_LINES) this.#layOrigin();
      return;
    }
    this.#place(request, line);
  }

  /** Lays second 0 at the earliest start among the lines held, then places them. */
  #layOrigin(): void {
    if (this.#origin !== null || this.#held.length === 0) return;
    let origin = Number.POSITIVE_INFINITY;
    for (const entry of this.#held) if ('request' in entry) origin = Math.min(origin, entry.request.startMs);
    this.#origin = origin;
    const held = this.#held;
    this.#held = [];
    for (const entry of held) {
      if ('request' in entry) this.#place(entry.request, entry.line);
      else this.#placeBytes(entry.atMs, entry.bytes, entry.line);
    }
  }

  #place(request: ImportedRequest, line: number): void {
    const endMs = request.startMs + request.latencyUs / 1000;
    const index = Math.floor((endMs - this.#origin!) / 1000);
    if (Math.abs(index) > MAX_SPAN_S) throw new ImportError(line, 'this request is more than a week away from the first one: is its timestamp wrong?');
    const bucket = this.#bucket(index);
    if ('error' in request.outcome) {
      bucket.errors[request.outcome.error] = (bucket.errors[request.outcome.error] ?? 0) + 1;
    } else {
      const status = request.outcome.status;
      const kind = status === null ? null : statusClass(status);
      if (status !== null && !kind) throw new ImportError(line, `status ${status} is no HTTP status`);
      bucket.answered++;
      if (kind) bucket.status[kind] = (bucket.status[kind] ?? 0) + 1;
      if (request.latencyUs > HIGHEST_US) this.#clamped++;
      this.#record(index, bucket, request.latencyUs);
    }
    bucket.bytes += request.bytes;
  }

  /** Bytes a file counts apart from its requests (k6's data_received), into the second they were stamped in. */
  addBytes(atMs: number, bytes: number, line: number): void {
    if (this.#count === 0) throw new ImportError(line, 'bytes before the first request');
    if (this.#origin === null) this.#held.push({ atMs, bytes, line });
    else this.#placeBytes(atMs, bytes, line);
  }

  #placeBytes(atMs: number, bytes: number, line: number): void {
    const index = Math.floor((atMs - this.#origin!) / 1000);
    if (Math.abs(index) > MAX_SPAN_S) throw new ImportError(line, 'these bytes are more than a week away from the first request: is the timestamp wrong?');
    this.#bucket(index).bytes += bytes;
  }

  /**
   * The importer's result from these requests: what the file is and lacks (`about`), plus the
   * seconds, the clock times where the file has them (`dated`), and the note every per-request
   * format owes when latencies went past the histogram's range.
   */
  result(about: Pick<ImportedResultBase, 'format' | 'source' | 'resolution' | 'tool' | 'missing' | 'absent'> & Partial<Pick<ImportedResultBase, 'toolFigures'>>, options: { dated: boolean; elapsedMs?: number }): ImportedResult {
    const seconds = this.seconds(options.elapsedMs);
    const clamped = this.#clamped > 0 ? [`${this.#clamped} latencies above 60 s recorded at 60 s`] : [];
    const dated = options.dated && this.startMs !== null && this.lastEndMs !== null;
    const endMs = options.elapsedMs !== undefined && this.startMs !== null ? this.startMs + options.elapsedMs : this.lastEndMs;
    return {
      ...about,
      kind: 'per-request',
      missing: [...about.missing, ...clamped],
      startedAt: dated ? new Date(this.startMs!).toISOString() : null,
      endedAt: dated ? new Date(endMs!).toISOString() : null,
      load: null,
      seconds,
    };
  }

  /** The whole seconds the requests span (ab's -g): what a run's elapsed time must fit. */
  get spanSeconds(): number {
    this.#layOrigin();
    if (this.#buckets.size === 0) return 0;
    const { first, last } = this.#range();
    return last - first + 1;
  }

  /**
   * The seconds in order, gaps filled with empty seconds, from the one holding the earliest start:
   * the first as long as it lies after that start, the last as long as the requests reached into
   * it. `elapsedMs` (a run's own elapsed time, for whole-second files) shortens the last second,
   * then the first, so that the seconds add up to it.
   */
  seconds(elapsedMs?: number): ImportedSecond[] {
    this.#layOrigin();
    if (this.#count === 0 || this.#origin === null) return [];
    const origin = this.#origin;
    const { first, last } = this.#range();
    const durations = new Map<number, number>();
    for (let index = first; index <= last; index++) {
      const from = this.#wholeSeconds ? origin + index * 1000 : Math.max(origin + index * 1000, this.#earliestStartMs);
      const to = this.#wholeSeconds ? origin + (index + 1) * 1000 : Math.min(origin + (index + 1) * 1000, this.#lastEndMs);
      durations.set(index, Math.min(1000, Math.max(1, Math.ceil(to - from))));
    }
    if (elapsedMs !== undefined) {
      let excess = [...durations.values()].reduce((sum, ms) => sum + ms, 0) - Math.max(1, Math.round(elapsedMs));
      for (const index of [last, first]) {
        const take = Math.min(Math.max(0, excess), durations.get(index)! - 1);
        durations.set(index, durations.get(index)! - take);
        excess -= take;
      }
    }
    const seconds: ImportedSecond[] = [];
    for (let index = first; index <= last; index++) {
      const bucket = this.#buckets.get(index);
      const histogram = bucket ? this.#final(bucket) : null;
      const stats = histogram ? latencyStats(histogram) : null;
      const durationMs = durations.get(index)!;
      const secondStart = index === first && !this.#wholeSeconds ? Math.max(origin + index * 1000, this.#earliestStartMs) : origin + index * 1000;
      const errors = { ...emptyErrors(), ...bucket?.errors };
      const errorCount = Object.values(errors).reduce((sum, count) => sum + count, 0);
      seconds.push({
        second: index - first,
        clientIndex: 0,
        phase: 'measure',
        scheduled: this.#failuresListed ? (bucket?.answered ?? 0) + errorCount : null,
        notSent: {},
        inFlight: this.#failuresListed ? 0 : null,
        requests: bucket?.answered ?? 0,
        bytes: bucket?.bytes ?? 0,
        errors,
        statusClasses: { ...emptyStatus(), ...bucket?.status },
        p50Us: stats?.p50Us ?? null,
        p90Us: stats?.p90Us ?? null,
        p99Us: stats?.p99Us ?? null,
        maxUs: stats?.maxUs ?? null,
        histogram: histogram && histogram.totalCount > 0 ? encodeHistogram(histogram) : null,
        clientMetrics: { at: Math.round(secondStart + durationMs), durationMs },
        serverMetrics: null,
      });
    }
    return seconds;
  }

  /** The first second (the one holding the earliest start, or an earlier end) and the last. */
  #range(): { first: number; last: number } {
    let first = Math.floor((this.#earliestStartMs - this.#origin!) / 1000);
    let last = first;
    for (const index of this.#buckets.keys()) {
      if (index < first) first = index;
      if (index > last) last = index;
    }
    return { first, last };
  }

  #bucket(index: number): Bucket {
    let bucket = this.#buckets.get(index);
    if (!bucket) {
      bucket = { answered: 0, bytes: 0, errors: {}, status: {}, histogram: null, encoded: null, late: null };
      this.#buckets.set(index, bucket);
    }
    return bucket;
  }

  /** Records into the bucket's live histogram; a sealed bucket keeps the latency as a count until the end. */
  #record(index: number, bucket: Bucket, latencyUs: number): void {
    if (bucket.histogram) return recordLatencyUs(bucket.histogram, latencyUs);
    if (!bucket.encoded) return recordLatencyUs(this.#openLive(index, bucket), latencyUs);
    bucket.late ??= new Map();
    bucket.late.set(latencyUs, (bucket.late.get(latencyUs) ?? 0) + 1);
    if (bucket.late.size < MAX_LATE_VALUES) return;
    // Many distinct late latencies for one second: fold them in once rather than hold them all.
    const histogram = this.#final(bucket);
    bucket.encoded = encodeHistogram(histogram!);
    bucket.late = null;
    this.#folds++;
  }

  /** The bucket's histogram with its late lines in (a sealed bucket's is decoded: read it once). */
  #final(bucket: Bucket): LatencyHistogram | null {
    const histogram = bucket.histogram ?? (bucket.encoded ? decodeHistogram(bucket.encoded) : null);
    if (!histogram || !bucket.late) return histogram;
    for (const [latencyUs, count] of bucket.late) histogram.recordValueWithCount(Math.min(HIGHEST_US, Math.max(LOWEST_US, Math.round(latencyUs))), count);
    // Into the live histogram they are in for good; a decoded copy leaves them waiting.
    if (bucket.histogram) bucket.late = null;
    return histogram;
  }

  /** A new live histogram for the bucket; seals the oldest beyond the limit. */
  #openLive(index: number, bucket: Bucket): LatencyHistogram {
    bucket.histogram = createLatencyHistogram();
    this.#open.push(index);
    if (this.#open.length > MAX_OPEN_SECONDS) {
      this.#open.sort((a, b) => a - b);
      // The oldest other than the one just opened (a late line may be the oldest itself).
      const at = this.#open[0] === index ? 1 : 0;
      const oldest = this.#buckets.get(this.#open.splice(at, 1)[0]!)!;
      oldest.encoded = encodeHistogram(oldest.histogram!);
      oldest.histogram = null;
    }
    return bucket.histogram;
  }
}

/**
 * The parser of a CSV that lists answered requests only and no clock time (hey's, oha's): no books
 * (what was not answered is not in the file), the run dated by the import. `unanswered` names what
 * the file leaves out beside the failures, `missing` what else it lacks (asked at the end).
 */
export function answeredOnlyCsvParser(
  csv: { line(text: string, number: number): void; readonly read: boolean },
  series: RequestSeries,
  about: Pick<ImportedResultBase, 'format' | 'source' | 'resolution'> & { what: string; unanswered: string },
  missing: () => string[],
): FormatParser {
  return {
    line: csv.line,
    finish(): ImportedResult {
      if (!csv.read) throw new ImportError(null, 'the file is empty');
      if (series.count === 0) throw new ImportError(null, `${about.what} lists no requests`);
      const reason = `${about.what} lists answered requests only`;
      const lacks = [`${reason}: failed counts its non-2xx answers; ${about.unanswered} are not in it`, 'no clock time: the run is dated by the import', ...missing()];
      const { format, source, resolution } = about;
      return series.result({ format, source, resolution, tool: {}, missing: lacks, absent: { timeouts: reason, notSent: reason } }, { dated: false });
    },
  };
}
