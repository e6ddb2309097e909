// The open model in one load thread: slots released on the arrival schedule whether or not earlier
// ones were answered, each sent on a free connection, opening one on demand up to the thread's
// maximum. Latency and the timeout run from the slot's intended time, so waiting for a connection
// counts: a slot still waiting when its timeout runs out is not sent (`pool-full`); one on the wire
// then is a timeout, put in the histogram at the timeout value, and its connection is closed so a
// late answer cannot be taken for another request's. A connection that fails fails its request;
// the pool opens another when the next slot needs it (no reconnect loop against a refusing target).
// A connection that takes one request (HTTP/1.0, `Connection: close`) leaves the pool with its
// answer, so the next slot opens its own at once; that connect is inside the slot's latency.

import { ArrivalSchedule } from './arrival-schedule.ts';
import { DeadlineQueue } from './deadline-queue.ts';
import { HttpConnection, now, type ConnectionListener, type EncodedRequest } from './http-client.ts';
import { MEASURE, WARMUP, type PhaseTag } from './interval-recorder.ts';
import type { Driver, DriverContext } from './thread-messages.ts';

export class OpenDriver implements Driver {
  readonly #context: DriverContext;
  readonly #request: EncodedRequest;
  readonly #timeoutMs: number;
  readonly #maxConnections: number;
  readonly #pool = new Set<HttpConnection>();
  /** Free connections, the last freed on top (the fewest connections stay busy). */
  readonly #idle: HttpConnection[] = [];
  readonly #onWire = new DeadlineQueue();
  readonly #listener: ConnectionListener;
  /** Intended times of released slots waiting for a connection, in order. */
  #waiting: number[] = [];
  #waitingHead = 0;
  #schedules: ArrivalSchedule[] = [];
  #measureAt = Number.POSITIVE_INFINITY;
  #scheduling = false;
  #draining = false;
  #drainedSaid = false;
  #finished = false;
  /** Cut short: nothing more is sent (what is on the wire is reported in flight). */
  #halted = false;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #timerAt = Number.POSITIVE_INFINITY;

  constructor(context: DriverContext, request: EncodedRequest) {
    this.#context = context;
    this.#request = request;
    this.#timeoutMs = context.setup.request.timeoutMs;
    this.#maxConnections = context.setup.open!.maxConnections;
    const recorder = context.recorder;
    this.#listener = {
      connected: (_connection, connectUs) => recorder.connected(connectUs),
      answered: (connection, statusCode, bytes, from, tag, waitingUs, connectUs) => {
        const latencyMs = now() - from;
        // An answer after its deadline (the timer ran late on a busy loop) is a timeout all the
        // same: the same request must not count as answered on one machine and timed out on another.
        if (latencyMs > this.#timeoutMs) recorder.failed(tag as PhaseTag, 'timeout', this.#timeoutMs * 1000);
        else recorder.answered(tag as PhaseTag, statusCode, bytes, latencyMs * 1000, waitingUs, connectUs);
        if (connection.usable) {
          if (connection.outstanding === 0) this.#idle.push(connection);
        } else if (connection.outstanding === 0) this.#pool.delete(connection);
        this.#dispatch();
        this.#checkDrained();
      },
      failed: (_connection, kind, _from, tag) => {
        // A silent server must not look fast: its timeouts are latencies of the timeout.
        recorder.failed(tag as PhaseTag, kind, kind === 'timeout' ? this.#timeoutMs * 1000 : undefined);
        this.#checkDrained();
      },
      closed: (connection, _wasConnected, error) => {
        if (this.#finished) return;
        this.#pool.delete(connection);
        const idle = this.#idle.lastIndexOf(connection);
        if (idle >= 0) this.#idle.splice(idle, 1);
        if ((error as { code?: unknown } | null)?.code === 'EADDRNOTAVAIL') recorder.portError();
        this.#dispatch();
      },
    };
  }

  get backlog(): number {
    return this.#waiting.length - this.#waitingHead;
  }

  get connections(): number {
    return this.#pool.size;
  }

  start(startAt: number): void {
    const { rate, phase, durationS, requests } = this.#context.setup.open!;
    this.#measureAt = startAt + this.#context.setup.warmupS * 1000;
    if (this.#context.setup.warmupS > 0) this.#schedules.push(new ArrivalSchedule({ startAt, rate, phase, endAt: this.#measureAt }));
    // A fixed count is exactly that many slots; a rate runs until the window's end.
    const measured = requests !== undefined ? { limit: requests } : { endAt: this.#measureAt + durationS * 1000 };
    this.#schedules.push(new ArrivalSchedule({ startAt: this.#measureAt, rate, phase, ...measured }));
    this.#scheduling = true;
    this.#tick();
  }

  catchUp(at: number): void {
    this.#release(at);
    this.#dispatch();
  }

  drain(at: number): void {
    this.#release(at);
    this.#scheduling = false;
    this.#draining = true;
    this.#dispatch();
    this.#arm();
    this.#checkDrained();
  }

  halt(at: number): void {
    this.#release(at);
    this.#scheduling = false;
    this.#halted = true;
    // Slots already due but still waiting for a connection will never go out: the step ended.
    const recorder = this.#context.recorder;
    while (this.#waitingHead < this.#waiting.length) recorder.notSent(this.#tagOf(this.#waiting[this.#waitingHead++]!), 'step-ended');
  }

  settle(): void {
    this.#scheduling = false;
    const recorder = this.#context.recorder;
    while (this.#waitingHead < this.#waiting.length) recorder.notSent(this.#tagOf(this.#waiting[this.#waitingHead++]!), 'step-ended');
    for (const connection of [...this.#pool]) connection.abort('timeout');
  }

  finish(): void {
    this.#finished = true;
    this.#scheduling = false;
    if (this.#timer) clearTimeout(this.#timer);
    for (const connection of this.#pool) connection.drop();
    this.#pool.clear();
    this.#idle.length = 0;
  }

  #tagOf(intendedAt: number): PhaseTag {
    return intendedAt >= this.#measureAt ? MEASURE : WARMUP;
  }

  /** Releases the slots intended at or before `at` into the waiting queue, counted as scheduled. */
  #release(at: number): void {
    if (!this.#scheduling) return;
    const recorder = this.#context.recorder;
    for (const schedule of this.#schedules) {
      const from = this.#waiting.length;
      schedule.release(at, this.#waiting);
      const released = this.#waiting.length - from;
      if (released > 0) recorder.scheduled(this.#tagOf(this.#waiting[from]!), released);
    }
  }

  #tick = (): void => {
    this.#timer = null;
    this.#timerAt = Number.POSITIVE_INFINITY;
    if (this.#finished) return;
    const at = now();
    this.#release(at);
    this.#expire(at);
    this.#dispatch();
    this.#arm();
  };

  /** Slots whose timeout ran out while waiting are not sent; requests whose timeout ran out on the wire time out. */
  #expire(at: number): void {
    const recorder = this.#context.recorder;
    while (this.#waitingHead < this.#waiting.length && this.#waiting[this.#waitingHead]! + this.#timeoutMs <= at) {
      recorder.notSent(this.#tagOf(this.#waiting[this.#waitingHead++]!), 'pool-full');
    }
    for (let expired = this.#onWire.popExpired(at); expired; expired = this.#onWire.popExpired(at)) {
      const connection = expired.connection;
      connection.abort('timeout');
      // Out of the pool now, not at its `close`: the next waiting slot gets a connection at once.
      this.#pool.delete(connection);
    }
    this.#checkDrained();
  }

  #dispatch(): void {
    if (this.#finished || this.#halted) return;
    const recorder = this.#context.recorder;
    while (this.#waitingHead < this.#waiting.length) {
      const connection = this.#freeConnection();
      if (!connection) break;
      const intendedAt = this.#waiting[this.#waitingHead++]!;
      this.#onWire.push(connection, connection.nextSeq, intendedAt + this.#timeoutMs);
      connection.send(intendedAt, this.#tagOf(intendedAt));
      recorder.sent();
    }
    // Compact the FIFO now and then rather than shift() per request.
    if (this.#waitingHead === this.#waiting.length) {
      this.#waiting.length = 0;
      this.#waitingHead = 0;
    } else if (this.#waitingHead > 4096 && this.#waitingHead * 2 > this.#waiting.length) {
      this.#waiting = this.#waiting.slice(this.#waitingHead);
      this.#waitingHead = 0;
    }
    this.#arm();
  }

  #freeConnection(): HttpConnection | null {
    while (this.#idle.length > 0) {
      const connection = this.#idle.pop()!;
      if (connection.usable && connection.outstanding === 0) return connection;
    }
    if (this.#pool.size >= this.#maxConnections) return null;
    const connection = new HttpConnection(this.#request, this.#listener);
    this.#pool.add(connection);
    return connection;
  }

  /** One timer for whatever comes first: the next slot, a request's deadline, a waiting slot's deadline. */
  #arm(): void {
    if (this.#finished) return;
    let at = Number.POSITIVE_INFINITY;
    if (this.#scheduling) for (const schedule of this.#schedules) at = Math.min(at, schedule.nextAt() ?? at);
    at = Math.min(at, this.#onWire.nextDeadline() ?? at);
    if (this.#waitingHead < this.#waiting.length) at = Math.min(at, this.#waiting[this.#waitingHead]! + this.#timeoutMs);
    if (at === Number.POSITIVE_INFINITY || at >= this.#timerAt) return;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timerAt = at;
    // Timers fire late by up to ~1 ms; what passed meanwhile is handled together at the next tick.
    this.#timer = setTimeout(this.#tick, Math.max(0, at - now()));
  }

  #checkDrained(): void {
    if (!this.#draining || this.#drainedSaid || this.#context.recorder.inFlight(MEASURE) > 0) return;
    this.#drainedSaid = true;
    this.#context.post({ type: 'drained' });
  }
}
