// Which server reading belongs to which client second. The sampler on the server host reads /proc
// once a second and says when (`readAt`, its host's clock); each client second says when it ended
// (`at`, the client's clock). A client second is given the reading taken closest to its end, on one
// time line, and a reading is given to a client's second at most once: a second for which no
// reading was taken (the sampler stalled, its lines late or lost) is a gap, never a copy of the
// reading before. Lines that arrive in a burst (a slow link, a busy Benchlab) still pair by when
// they were read, not by when they arrived.
//
// The two hosts' clocks are put on Benchlab's by the smallest delay each source's lines have shown
// (received minus sent): the link's shortest transit plus the clocks' offset, the same for every
// line of that source, so a line delayed later does not move it.

import type { ServerMetrics } from './agent-protocol.ts';

/** A reading belongs to a client second that ended within this much after it was taken… */
const BEFORE_END_MS = 1000 + 250;
/** …or this much before (read just after the second's end, it still covers most of it). */
const AFTER_END_MS = 500;
/** Readings are kept this long (Benchlab's clock) for late client seconds. */
const KEEP_MS = 60_000;

interface Held {
  reading: ServerMetrics;
  /** When it was taken, on the sampler host's clock (its arrival, for an agent that does not say). */
  readAt: number;
  receivedAt: number;
}

export class ServerReadings {
  readonly #held: Held[] = [];
  /** Received minus read: the smallest seen for the sampler, and for each client by index. */
  #serverDelay = Number.POSITIVE_INFINITY;
  readonly #clientDelay = new Map<number, number>();
  /** The read time of the reading each client's last second was given. */
  readonly #lastGiven = new Map<number, number>();

  /** A reading arrived (at `receivedAt`, Benchlab's clock). */
  add(reading: ServerMetrics, receivedAt: number): void {
    const readAt = reading.readAt ?? receivedAt;
    this.#serverDelay = Math.min(this.#serverDelay, receivedAt - readAt);
    this.#held.push({ reading, readAt, receivedAt });
    while (this.#held.length > 0 && receivedAt - this.#held[0]!.receivedAt > KEEP_MS) this.#held.shift();
  }

  /**
   * The reading for a client's second that ended at `endAt` (the client's clock), which arrived at
   * `receivedAt`; null when none was taken for it (a gap).
   */
  forSecond(clientIndex: number, endAt: number, receivedAt: number): ServerMetrics | null {
    const delay = Math.min(this.#clientDelay.get(clientIndex) ?? Number.POSITIVE_INFINITY, receivedAt - endAt);
    this.#clientDelay.set(clientIndex, delay);
    if (this.#held.length === 0) return null;
    const end = endAt + delay;
    const lastGiven = this.#lastGiven.get(clientIndex) ?? Number.NEGATIVE_INFINITY;
    let best: Held | null = null;
    for (const held of this.#held) {
      if (held.readAt <= lastGiven) continue;
      const at = held.readAt + this.#serverDelay;
      if (at < end - BEFORE_END_MS || at > end + AFTER_END_MS) continue;
      if (!best || Math.abs(at - end) < Math.abs(best.readAt + this.#serverDelay - end)) best = held;
    }
    if (!best) return null;
    this.#lastGiven.set(clientIndex, best.readAt);
    return best.reading;
  }
}
