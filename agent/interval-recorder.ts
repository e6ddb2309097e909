// One load thread's books since the last interval boundary, kept apart per phase a request was
// scheduled in (warm-up or measured): scheduled, answered by status class with bytes, the µs
// latency histogram and the answers' waiting and processing histograms (with how many paid their
// own connect), errors by kind, not sent by reason, and what is still in flight. Also the thread's
// phase-less figures (requests written, new connections with their connect histogram and the
// slowest connect, local port errors). `take(phase)` hands one phase's interval over and starts its next.

import { createLatencyHistogram, encodeHistogram, recordLatencyUs, type LatencyHistogram } from '../app/common/hdr.ts';
import type { RequestPhases } from '../app/runs/agent-protocol.ts';
import { emptyErrors, emptyNotSent, emptySecondCounts, emptyStatus, STATUS_CLASSES, type ErrorCounts, type ErrorKind, type NotSentCounts, type NotSentReason, type SecondCounts, type StatusCounts } from '../app/runs/run-summary.ts';

/** The phase a request was scheduled in; it keeps it until it is settled. */
export const WARMUP = 0;
export const MEASURE = 1;
export type PhaseTag = typeof WARMUP | typeof MEASURE;

/** The second's own counts (SECOND_COUNTS) under their names, and the rest of the interval's books. */
export interface IntervalData extends SecondCounts {
  status: StatusCounts;
  errors: ErrorCounts;
  notSent: NotSentCounts;
  /** Scheduled in this phase and not settled yet (a level, not a count of the interval). */
  inFlight: number;
  histogram: string | null;
  sent: number;
  portErrors: number;
  newConnections: number;
  connectUsMax: number | null;
  phases: RequestPhases;
}

class PhaseBooks {
  histogram: LatencyHistogram = createLatencyHistogram();
  waiting: LatencyHistogram = createLatencyHistogram();
  processing: LatencyHistogram = createLatencyHistogram();
  withConnect = 0;
  counts = emptySecondCounts();
  status = emptyStatus();
  errors = emptyErrors();
  notSent = emptyNotSent();
  /** Scheduled minus settled since the phase began. */
  inFlight = 0;
  /** After its last line the phase's late settlements are no one's: they are not recorded. */
  closed = false;
}

export class IntervalRecorder {
  readonly #books = [new PhaseBooks(), new PhaseBooks()] as const;
  /** Swapped in at each take rather than allocated: a histogram of 1 µs–60 s is ~100 KB of counts. */
  #spare: LatencyHistogram = createLatencyHistogram();
  #connect: LatencyHistogram = createLatencyHistogram();
  #sent = 0;
  #portErrors = 0;
  #newConnections = 0;
  #connectUsMax = 0;

  scheduled(tag: PhaseTag, count = 1): void {
    const books = this.#books[tag];
    books.counts.scheduled += count;
    books.inFlight += count;
  }

  /** `latencyUs`: the headline total; `waitingUs`: write to first byte; `connectUs`: the connect it paid (0: reused). */
  answered(tag: PhaseTag, statusCode: number, bytes: number, latencyUs: number, waitingUs: number, connectUs: number): void {
    const books = this.#books[tag];
    books.inFlight--;
    if (books.closed) return;
    const statusClass = STATUS_CLASSES[Math.floor(statusCode / 100) - 1];
    if (!statusClass) {
      // No status class to count it under: an answer outside HTTP's, so an error.
      books.errors.other++;
      return;
    }
    books.counts.requests++;
    books.counts.bytes += bytes;
    books.status[statusClass]++;
    recordLatencyUs(books.histogram, latencyUs);
    recordLatencyUs(books.waiting, waitingUs);
    recordLatencyUs(books.processing, latencyUs - connectUs);
    if (connectUs > 0) books.withConnect++;
  }

  /** A request that ended without an answer; `latencyUs` puts it in the histogram (open-model timeouts). */
  failed(tag: PhaseTag, kind: ErrorKind, latencyUs?: number): void {
    const books = this.#books[tag];
    books.inFlight--;
    if (books.closed) return;
    books.errors[kind]++;
    if (latencyUs !== undefined) recordLatencyUs(books.histogram, latencyUs);
  }

  notSent(tag: PhaseTag, reason: NotSentReason): void {
    const books = this.#books[tag];
    books.inFlight--;
    if (!books.closed) books.notSent[reason]++;
  }

  inFlight(tag: PhaseTag): number {
    return this.#books[tag].inFlight;
  }

  sent(): void {
    this.#sent++;
  }

  connected(connectUs: number): void {
    this.#newConnections++;
    recordLatencyUs(this.#connect, connectUs);
    if (connectUs > this.#connectUsMax) this.#connectUsMax = connectUs;
  }

  portError(): void {
    this.#portErrors++;
  }

  /** Hands over `tag`'s interval; `last`: the phase has no further line. */
  take(tag: PhaseTag, last = false): IntervalData {
    const books = this.#books[tag];
    const histogram = books.histogram.totalCount > 0 ? encodeHistogram(books.histogram) : null;
    const phases: RequestPhases = {
      connect: encodeOrNull(this.#connect),
      waiting: encodeOrNull(books.waiting),
      processing: encodeOrNull(books.processing),
      withConnect: books.withConnect,
    };
    const data: IntervalData = {
      ...books.counts,
      status: books.status,
      errors: books.errors,
      notSent: books.notSent,
      inFlight: books.inFlight,
      histogram,
      sent: this.#sent,
      portErrors: this.#portErrors,
      newConnections: this.#newConnections,
      connectUsMax: this.#newConnections > 0 ? this.#connectUsMax : null,
      phases,
    };
    [books.histogram, this.#spare] = [this.#spare, books.histogram];
    books.histogram.reset();
    // Reset only when used: most intervals of a keep-alive run open no connection.
    if (this.#connect.totalCount > 0) this.#connect.reset();
    if (books.waiting.totalCount > 0) books.waiting.reset();
    if (books.processing.totalCount > 0) books.processing.reset();
    books.withConnect = 0;
    books.counts = emptySecondCounts();
    books.status = emptyStatus();
    books.errors = emptyErrors();
    books.notSent = emptyNotSent();
    if (last) books.closed = true;
    this.#sent = this.#portErrors = this.#newConnections = this.#connectUsMax = 0;
    return data;
  }
}

function encodeOrNull(histogram: LatencyHistogram): string | null {
  return histogram.totalCount > 0 ? encodeHistogram(histogram) : null;
}
