// Per-request results of another tool turned into Benchlab's own seconds: one RunSecond per
// wall-clock second from the first request's start, each request counted in the second it ended
// (as Benchlab's clients count an answer in the second it arrives), with a real HDR interval
// histogram (microseconds, the agent's settings: app/common/hdr.ts) and its books — scheduled =
// answered + errors (timeouts apart), nothing in flight, nothing "not sent". Failed requests are
// counted, not timed, as in Benchlab's closed model. Memory stays bounded by the seconds kept open,
// not by the requests: an old second is encoded and reopened only if a late line belongs to it.

import { createLatencyHistogram, decodeHistogram, encodeHistogram, HIGHEST_US, latencyStats, recordLatencyUs, type LatencyHistogram } from '../../common/hdr.ts';
import { emptyErrors, emptyStatus, type ErrorKind } from '../../runs/run-summary-schema.ts';
import { ImportError, type ImportedResult, type ImportedResultBase, type ImportedSecond } from './imported-result.ts';

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

interface Bucket {
  answered: number;
  bytes: number;
  errors: Record<string, number>;
  status: Record<string, number>;
  histogram: LatencyHistogram | null;
  encoded: string | null;
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
  #lastEndMs = Number.NEGATIVE_INFINITY;
  #count = 0;
  #clamped = 0;

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

  /** Where second 0 begins (epoch ms, or ms from the run's start where the file has no clock). */
  get startMs(): number | null {
    if (this.#origin === null) return null;
    return this.#origin + Math.min(...this.#buckets.keys()) * 1000;
  }

  get lastEndMs(): number | null {
    return this.#count === 0 ? null : this.#lastEndMs;
  }

  add(request: ImportedRequest, line: number): void {
    const endMs = request.startMs + request.latencyUs / 1000;
    this.#origin ??= request.startMs;
    const index = Math.floor((endMs - this.#origin) / 1000);
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
      recordLatencyUs(this.#live(index, bucket), request.latencyUs);
    }
    bucket.bytes += request.bytes;
    this.#count++;
    this.#lastEndMs = Math.max(this.#lastEndMs, endMs);
  }

  /** Bytes a file counts apart from its requests (k6's data_received), into the second they were stamped in. */
  addBytes(atMs: number, bytes: number, line: number): void {
    if (this.#origin === null) throw new ImportError(line, 'bytes before the first request');
    const index = Math.floor((atMs - this.#origin) / 1000);
    if (Math.abs(index) > MAX_SPAN_S) throw new ImportError(line, 'these bytes are more than a week away from the first request: is the timestamp wrong?');
    this.#bucket(index).bytes += bytes;
  }

  /**
   * The importer's result from these requests: what the file is and lacks (`about`), plus the
   * seconds, the clock times where the file has them (`dated`), and the note every per-request
   * format owes when latencies went past the histogram's range.
   */
  result(about: Pick<ImportedResultBase, 'format' | 'source' | 'resolution' | 'tool' | 'missing' | 'absent'>, options: { dated: boolean }): ImportedResult {
    const clamped = this.#clamped > 0 ? [`${this.#clamped} latencies above 60 s recorded at 60 s`] : [];
    const dated = options.dated && this.startMs !== null && this.lastEndMs !== null;
    return {
      ...about,
      kind: 'per-request',
      missing: [...about.missing, ...clamped],
      startedAt: dated ? new Date(this.startMs!).toISOString() : null,
      endedAt: dated ? new Date(this.lastEndMs!).toISOString() : null,
      load: null,
      seconds: this.seconds(),
    };
  }

  /** The seconds in order, gaps filled with empty seconds; the last one as long as the requests reached into it. */
  seconds(): ImportedSecond[] {
    if (this.#count === 0 || this.#origin === null) return [];
    const indexes = [...this.#buckets.keys()];
    const first = Math.min(...indexes);
    const last = Math.max(...indexes);
    const seconds: ImportedSecond[] = [];
    for (let index = first; index <= last; index++) {
      const bucket = this.#buckets.get(index);
      const histogram = bucket ? (bucket.histogram ?? (bucket.encoded ? decodeHistogram(bucket.encoded) : null)) : null;
      const stats = histogram ? latencyStats(histogram) : null;
      const secondStart = this.#origin + index * 1000;
      const durationMs = index === last && !this.#wholeSeconds ? Math.min(1000, Math.max(1, Math.ceil(this.#lastEndMs - secondStart))) : 1000;
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

  #bucket(index: number): Bucket {
    let bucket = this.#buckets.get(index);
    if (!bucket) {
      bucket = { answered: 0, bytes: 0, errors: {}, status: {}, histogram: null, encoded: null };
      this.#buckets.set(index, bucket);
    }
    return bucket;
  }

  /** The bucket's live histogram, reopened from its encoding if a late line needs it; seals the oldest beyond the limit. */
  #live(index: number, bucket: Bucket): LatencyHistogram {
    if (bucket.histogram) return bucket.histogram;
    bucket.histogram = bucket.encoded ? decodeHistogram(bucket.encoded) : createLatencyHistogram();
    bucket.encoded = null;
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
