// One load thread's measurements since the last second boundary: responses, bytes, status classes,
// errors by kind, and the µs latency histogram. `take()` hands the interval over and starts the next.

import { createLatencyHistogram, encodeHistogram, recordLatencyUs, type LatencyHistogram } from '../app/hdr.ts';
import { emptyErrors, emptyStatus, type ErrorCounts, type ErrorKind, type StatusCounts } from '../app/run-summary.ts';

export interface IntervalData {
  requests: number;
  bytes: number;
  sent: number;
  status: StatusCounts;
  errors: ErrorCounts;
  portErrors: number;
  histogram: string | null;
}

const STATUS_BY_HUNDRED = ['1xx', '2xx', '3xx', '4xx', '5xx'] as const;

/** The error kind of a socket error, by its code. */
export function errorKindOf(error: unknown): ErrorKind {
  const code = (error as { code?: unknown } | null)?.code;
  switch (code) {
    case 'ECONNREFUSED':
      return 'refused';
    case 'ECONNRESET':
    case 'EPIPE':
    case 'ECONNABORTED':
      return 'reset';
    case 'ETIMEDOUT':
      return 'timeout';
    default:
      return 'other';
  }
}

export class IntervalRecorder {
  #histogram: LatencyHistogram = createLatencyHistogram();
  #spare: LatencyHistogram = createLatencyHistogram();
  #requests = 0;
  #bytes = 0;
  #sent = 0;
  #status = emptyStatus();
  #errors = emptyErrors();
  #portErrors = 0;

  response(statusCode: number, bytes: number, latencyUs: number): void {
    this.#requests++;
    this.#bytes += bytes;
    const statusClass = STATUS_BY_HUNDRED[Math.floor(statusCode / 100) - 1];
    if (statusClass) this.#status[statusClass]++;
    if (statusCode < 200 || statusCode >= 300) this.#errors.non2xx++;
    recordLatencyUs(this.#histogram, latencyUs);
  }

  sent(count = 1): void {
    this.#sent += count;
  }

  error(kind: ErrorKind, cause?: unknown): void {
    this.#errors[kind]++;
    if ((cause as { code?: unknown } | null)?.code === 'EADDRNOTAVAIL') this.#portErrors++;
  }

  take(): IntervalData {
    const histogram = this.#histogram.totalCount > 0 ? encodeHistogram(this.#histogram) : null;
    const data: IntervalData = {
      requests: this.#requests,
      bytes: this.#bytes,
      sent: this.#sent,
      status: this.#status,
      errors: this.#errors,
      portErrors: this.#portErrors,
      histogram,
    };
    // Swap rather than allocate: a histogram of 1 µs–60 s is ~100 KB of counts.
    [this.#histogram, this.#spare] = [this.#spare, this.#histogram];
    this.#histogram.reset();
    this.#requests = this.#bytes = this.#sent = this.#portErrors = 0;
    this.#status = emptyStatus();
    this.#errors = emptyErrors();
    return data;
  }
}
