// The chart points of a live session, published as `runs.points` with acknowledgement
// backpressure (the terminals' idea): at most POINTS_UNACKED_LIMIT points unacknowledged; beyond,
// points wait and go out together once the UI catches up — or after POINTS_STALL_MS without any
// ack, when acks were evidently lost. Every point is kept (bounded) for a page that opens mid-run.

import { LIVE_POINTS_KEPT, POINTS_STALL_MS, POINTS_UNACKED_LIMIT, type LivePoint } from '../../../app/runs/runs.ts';
import type { EventBus } from '../event-bus.ts';

export class PointStream {
  readonly #bus: EventBus;
  readonly #sessionId: number;
  readonly #stallMs: number;
  readonly #kept: LivePoint[] = [];
  #held: LivePoint[] = [];
  #seq = 0;
  /** Points in published batches whose seq is above the last ack. */
  #inFlight: Array<{ seq: number; count: number }> = [];
  #lastProgressAt = Date.now();
  #stallTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(bus: EventBus, sessionId: number, stallMs = POINTS_STALL_MS) {
    this.#bus = bus;
    this.#sessionId = sessionId;
    this.#stallMs = stallMs;
  }

  get unacked(): number {
    return this.#inFlight.reduce((sum, batch) => sum + batch.count, 0);
  }

  get held(): number {
    return this.#held.length;
  }

  points(): LivePoint[] {
    return [...this.#kept];
  }

  push(point: LivePoint): void {
    this.#kept.push(point);
    if (this.#kept.length > LIVE_POINTS_KEPT) this.#kept.splice(0, this.#kept.length - LIVE_POINTS_KEPT);
    this.#held.push(point);
    this.#drain();
  }

  /** The UI drew every point up to batch `seq`. */
  ack(seq: number): void {
    this.#lastProgressAt = Date.now();
    this.#inFlight = this.#inFlight.filter((batch) => batch.seq > seq);
    this.#drain();
  }

  close(): void {
    if (this.#stallTimer) clearTimeout(this.#stallTimer);
    this.#stallTimer = null;
  }

  #drain(): void {
    if (this.#held.length === 0) return;
    if (this.unacked >= POINTS_UNACKED_LIMIT) {
      this.#watchStall();
      return;
    }
    const points = this.#held.splice(0);
    const seq = ++this.#seq;
    this.#inFlight.push({ seq, count: points.length });
    this.#bus.publish('runs.points', { sessionId: this.#sessionId, seq, points });
  }

  #watchStall(): void {
    if (this.#stallTimer) return;
    const check = () => {
      this.#stallTimer = null;
      if (this.#held.length === 0) return;
      const quiet = Date.now() - this.#lastProgressAt;
      if (quiet < this.#stallMs) {
        this.#stallTimer = setTimeout(check, this.#stallMs - quiet);
        return;
      }
      // No ack for a long while: assume they were lost and let the held points through.
      this.#inFlight = [];
      this.#lastProgressAt = Date.now();
      this.#drain();
    };
    this.#stallTimer = setTimeout(check, this.#stallMs);
    this.#stallTimer.unref?.();
  }
}
