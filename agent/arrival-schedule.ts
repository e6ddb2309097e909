// The open model's clock: request k of a load thread is intended at start + (k + phase) / rate,
// whether or not earlier requests were answered (a constant arrival rate, as Gatling and wrk2 send).
// Latency is measured from these intended times, so a stalled server is charged for every request
// it kept waiting, not only for those already on the wire (coordinated omission).

export interface ScheduleOptions {
  /** Epoch ms of the first slot. */
  startAt: number;
  /** This thread's requests per second. */
  rate: number;
  /** 0..1: where in its interval this thread's first slot falls, so threads interleave. */
  phase?: number;
  /** No slot is intended at or after this time (epoch ms). */
  endAt?: number;
  /** At most this many slots. */
  limit?: number;
}

export class ArrivalSchedule {
  readonly #options: Required<Omit<ScheduleOptions, 'endAt' | 'limit'>> & { endAt: number; limit: number };
  #next = 0;

  constructor(options: ScheduleOptions) {
    this.#options = { phase: 0, endAt: Number.POSITIVE_INFINITY, limit: Number.POSITIVE_INFINITY, ...options };
  }

  #at(k: number): number {
    return this.#options.startAt + ((k + this.#options.phase) * 1000) / this.#options.rate;
  }

  /** Intended time of the next slot not yet released, or null when the schedule is over. */
  nextAt(): number | null {
    if (this.#next >= this.#options.limit) return null;
    const at = this.#at(this.#next);
    return at < this.#options.endAt ? at : null;
  }

  /** Releases every slot intended at or before `now`, in order. */
  release(now: number, into: number[]): void {
    for (let at = this.nextAt(); at !== null && at <= now; at = this.nextAt()) {
      into.push(at);
      this.#next++;
    }
  }

  get released(): number {
    return this.#next;
  }

  /** Ends the schedule early (stop, drain). */
  end(): void {
    this.#options.limit = Math.min(this.#options.limit, this.#next);
  }
}
