// The closed model in one load thread: a fixed set of connections, each keeping `pipelining`
// requests on the wire and writing the next as an answer arrives. Latency is service time, from the
// write, except for a connection's first request, which opened it: its latency runs from the start
// of that connect (as ab's total), the connect being the request's. The timeout runs from the write,
// and a timed-out request is counted, not put in the histogram; its connection is closed, or with
// `onTimeout: wait` waits for the late answer (read, not counted) before its next request, as wrk's
// timeout counts without closing. A connection that takes one request (HTTP/1.0, `Connection:
// close`) is replaced as soon as its answer is read; one the server closed or reset is opened again
// at once; one that could not connect counts the request it set out to send as failed and is tried
// again after a pause. With a think time (app/runs/think-time.ts) each connection pauses before
// each request it sends, its first one too: a kept-alive connection stays open through the pause, a
// connection per request is opened after it, and the pause is in no latency (the request's time
// starts after it). A connection lost while it pauses is replaced when its pause ends; one lost
// under a request pauses anew before the next.

import { DeadlineQueue } from './deadline-queue.ts';
import { errorKindOf, HttpConnection, now, type ConnectionListener, type EncodedRequest } from './http-client.ts';
import { MEASURE, WARMUP, type PhaseTag } from './interval-recorder.ts';
import { thinkPauseMs, type ThinkTime } from '../app/runs/think-time.ts';
import type { Driver, DriverContext } from './thread-messages.ts';

/** Pause before connecting again after a failed connect, so a refusing target is not hammered in a tight loop. */
const RECONNECT_PAUSE_MS = 100;

export class ClosedDriver implements Driver {
  readonly #context: DriverContext;
  readonly #request: EncodedRequest;
  readonly #pipelining: number;
  readonly #timeoutMs: number;
  readonly #waitOnTimeout: boolean;
  readonly #connections = new Set<HttpConnection>();
  readonly #deadlines = new DeadlineQueue();
  readonly #pauses = new Set<ReturnType<typeof setTimeout>>();
  /** Connections already replaced when their answer was read: their close opens no other. */
  readonly #replaced = new Set<HttpConnection>();
  readonly #listener: ConnectionListener;
  readonly #think: ThinkTime | undefined;
  /** When a connection's next request may go: drawn as its answer arrived, until the pause ends. */
  readonly #nextAt = new WeakMap<HttpConnection, number>();
  #measureAt = Number.POSITIVE_INFINITY;
  /** Measured requests still to send (a fixed count), or null for a timed step. */
  #budget: number | null;
  /** Draining or finished: nothing more is written. */
  #stopped = false;
  #finished = false;
  #draining = false;
  #doneSaid = false;
  #drainedSaid = false;
  #timer: ReturnType<typeof setTimeout> | null = null;

  constructor(context: DriverContext, request: EncodedRequest) {
    this.#context = context;
    this.#request = request;
    const load = context.setup.closed!;
    this.#pipelining = load.pipelining;
    this.#timeoutMs = context.setup.request.timeoutMs;
    this.#waitOnTimeout = context.setup.request.onTimeout === 'wait';
    this.#budget = load.requests ?? null;
    this.#think = load.thinkTime;
    const recorder = context.recorder;
    this.#listener = {
      connected: (connection, connectUs) => {
        recorder.connected(connectUs);
        this.#fill(connection);
      },
      answered: (connection, statusCode, bytes, from, tag, waitingUs, connectUs) => {
        recorder.answered(tag as PhaseTag, statusCode, bytes, (now() - from) * 1000, waitingUs, connectUs);
        this.#next(connection);
      },
      lateAnswered: (connection) => this.#next(connection),
      failed: (_connection, kind, _from, tag) => {
        recorder.failed(tag as PhaseTag, kind);
        this.#check();
      },
      closed: (connection, wasConnected, error) => this.#closed(connection, wasConnected, error),
    };
  }

  /** A connection's answer was read: its next request goes now or after its pause, on it or on a new connection. */
  #next(connection: HttpConnection): void {
    const nextAt = this.#think ? now() + thinkPauseMs(this.#think) : null;
    if (nextAt !== null) this.#nextAt.set(connection, nextAt);
    if (connection.usable) {
      if (nextAt === null) this.#fill(connection);
      else
        this.#when(nextAt, () => {
          this.#nextAt.delete(connection);
          this.#fill(connection);
        });
    } else if (connection.outstanding === 0 && !this.#stopped) {
      // Its one request is done (or the server said close): the next connection starts now (or
      // when its pause ends), not a loop turn later at the close.
      this.#replaced.add(connection);
      this.#connections.delete(connection);
      if (nextAt === null) this.#open();
      else this.#when(nextAt, () => this.#open());
    }
    this.#check();
  }

  get backlog(): number {
    return 0;
  }

  get connections(): number {
    return this.#connections.size;
  }

  start(startAt: number): void {
    this.#measureAt = startAt + this.#context.setup.warmupS * 1000;
    const count = this.#context.setup.closed!.connections;
    const think = this.#think;
    if (think) {
      // Each connection pauses before its first request too, so random pauses spread the starts.
      for (let i = 0; i < count; i++) this.#when(startAt + thinkPauseMs(think), () => this.#open());
      return;
    }
    this.#when(startAt, () => {
      for (let i = 0; i < count; i++) this.#open();
    });
  }

  /** Runs `action` at `at` (epoch ms): a timer may fire a little early (whole milliseconds), so it waits again then. */
  #when(at: number, action: () => void): void {
    const early = at - now();
    if (early <= 0) {
      action();
      return;
    }
    const pause = setTimeout(() => {
      this.#pauses.delete(pause);
      this.#when(at, action);
    }, Math.ceil(early));
    this.#pauses.add(pause);
  }

  catchUp(): void {}

  drain(): void {
    this.#stopped = true;
    this.#draining = true;
    this.#check();
  }

  halt(): void {
    // What is on the wire stays there, reported in flight; no connection writes another request.
    this.#stopped = true;
  }

  settle(): void {
    this.#stopped = true;
    for (const connection of [...this.#connections]) connection.abort('timeout');
  }

  finish(): void {
    this.#stopped = this.#finished = true;
    if (this.#timer) clearTimeout(this.#timer);
    for (const pause of this.#pauses) clearTimeout(pause);
    for (const connection of this.#connections) connection.drop();
    this.#connections.clear();
  }

  #open(): void {
    if (this.#stopped || this.#budget === 0) return;
    this.#connections.add(new HttpConnection(this.#request, this.#listener));
  }

  /** Takes one request from the schedule: its phase, or null when nothing more may be sent. */
  #schedule(at: number): PhaseTag | null {
    if (this.#stopped) return null;
    const tag = at >= this.#measureAt ? MEASURE : WARMUP;
    if (tag === MEASURE && this.#budget !== null) {
      if (this.#budget === 0) return null;
      this.#budget--;
    }
    this.#context.recorder.scheduled(tag);
    return tag;
  }

  #fill(connection: HttpConnection): void {
    if (!connection.usable || connection.outstanding >= this.#pipelining) return;
    connection.cork();
    while (connection.usable && connection.outstanding < this.#pipelining) {
      const at = now();
      const tag = this.#schedule(at);
      if (tag === null) break;
      const seq = connection.nextSeq;
      this.#deadlines.push(connection, seq, at + this.#timeoutMs);
      // The connection's first request opened it: it counts from the connect's start.
      connection.send(seq === 0 ? connection.openedAt : at, tag);
      this.#context.recorder.sent();
    }
    connection.uncork();
    this.#arm();
  }

  #closed(connection: HttpConnection, wasConnected: boolean, error: unknown): void {
    if (this.#finished) return;
    if (this.#replaced.delete(connection)) return;
    this.#connections.delete(connection);
    const code = (error as { code?: unknown } | null)?.code;
    if (code === 'EADDRNOTAVAIL') this.#context.recorder.portError();
    if (wasConnected) {
      if (!this.#think) this.#open();
      else {
        // Lost while it paused: the next request still waits for that pause; lost under a request: a new one.
        const at = this.#nextAt.get(connection) ?? now() + thinkPauseMs(this.#think);
        this.#when(at, () => this.#open());
      }
    } else {
      // The connection set out to send a request: it is scheduled and failed with the connect.
      const tag = this.#schedule(now());
      if (tag !== null) this.#context.recorder.failed(tag, errorKindOf(error));
      const pause = setTimeout(() => {
        this.#pauses.delete(pause);
        this.#open();
      }, RECONNECT_PAUSE_MS);
      this.#pauses.add(pause);
    }
    this.#check();
  }

  #arm(): void {
    if (this.#timer || this.#finished) return;
    const deadline = this.#deadlines.nextDeadline();
    if (deadline === null) return;
    this.#timer = setTimeout(this.#expire, Math.max(1, deadline - now()));
  }

  #expire = (): void => {
    this.#timer = null;
    const at = now();
    for (let expired = this.#deadlines.popExpired(at); expired; expired = this.#deadlines.popExpired(at)) {
      if (this.#waitOnTimeout) expired.connection.expire(expired.seq);
      else expired.connection.abort('timeout');
    }
    this.#arm();
  };

  /** Tells the coordinator once when a fixed count is done, or the drain has nothing left. */
  #check(): void {
    if (this.#context.recorder.inFlight(MEASURE) > 0) return;
    if (this.#draining && !this.#drainedSaid) {
      this.#drainedSaid = true;
      this.#context.post({ type: 'drained' });
    } else if (!this.#draining && this.#budget === 0 && !this.#doneSaid) {
      this.#doneSaid = true;
      this.#context.post({ type: 'done' });
    }
  }
}
