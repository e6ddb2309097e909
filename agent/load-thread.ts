// The body of one load worker thread: its share of the connections (closed model) or of the rate
// (open model), its interval recorder, and its event-loop lag. Answers the coordinator's messages:
// `flush` (hand over the interval), `measure` (warm-up is over), `drain` (open model: send what is
// due, then report), `finish` (close every connection now).

import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import type { MessagePort } from 'node:worker_threads';
import type { RequestSpec } from '../app/load-profile.ts';
import { ArrivalSchedule } from './arrival-schedule.ts';
import { HttpConnection, type ConnectionListener, type Target } from './http-connection.ts';
import { IntervalRecorder, type IntervalData } from './interval-recorder.ts';

export interface ThreadSetup {
  index: number;
  target: Target;
  request: RequestSpec;
  warmupS: number;
  closed?: { connections: number; pipelining: number; durationS?: number | undefined; requests?: number | undefined };
  open?: { rate: number; phase: number; connections: number; requests?: number | undefined; durationS: number };
}

export type ToThread =
  | { type: 'start'; startAt: number }
  | { type: 'flush'; round: number }
  | { type: 'measure' }
  | { type: 'drain' }
  | { type: 'finish' };

export type FromThread =
  | { type: 'ready' }
  | ({ type: 'interval'; round: number; thread: number; lagMs: number; backlog: number; connections: number } & IntervalData)
  | { type: 'done' }
  | { type: 'fatal'; message: string };

const now = () => performance.timeOrigin + performance.now();

/** Splits `total` over `parts` as evenly as whole numbers allow; part `index` of it. */
export function share(total: number, parts: number, index: number): number {
  return Math.floor(total / parts) + (index < total % parts ? 1 : 0);
}

export function runLoadThread(setup: ThreadSetup, port: MessagePort): void {
  const recorder = new IntervalRecorder();
  const lag = monitorEventLoopDelay({ resolution: 10 });
  lag.enable();
  const post = (message: FromThread) => port.postMessage(message);
  const driver = setup.closed ? new ClosedDriver(setup, recorder, () => post({ type: 'done' })) : new OpenDriver(setup, recorder, () => post({ type: 'done' }));

  port.on('message', (message: ToThread) => {
    try {
      switch (message.type) {
        case 'start':
          driver.start(message.startAt);
          break;
        case 'flush': {
          const lagMs = lag.count > 0 ? lag.percentile(99) / 1e6 : 0;
          lag.reset();
          post({ type: 'interval', round: message.round, thread: setup.index, lagMs, backlog: driver.backlog, connections: driver.connections, ...recorder.take() });
          break;
        }
        case 'measure':
          driver.measure();
          break;
        case 'drain':
          driver.drain();
          break;
        case 'finish':
          driver.finish();
          lag.disable();
          break;
      }
    } catch (error) {
      post({ type: 'fatal', message: error instanceof Error ? error.message : String(error) });
    }
  });
  post({ type: 'ready' });
}

interface Driver {
  start(startAt: number): void;
  measure(): void;
  drain(): void;
  finish(): void;
  readonly backlog: number;
  readonly connections: number;
}

/** Closed model: a fixed set of connections, each sending its next request when answered. */
class ClosedDriver implements Driver {
  readonly #setup: ThreadSetup;
  readonly #load: NonNullable<ThreadSetup['closed']>;
  readonly #recorder: IntervalRecorder;
  readonly #onDone: () => void;
  readonly #connections: HttpConnection[] = [];
  #finished = 0;
  #counting = false;

  constructor(setup: ThreadSetup, recorder: IntervalRecorder, onDone: () => void) {
    this.#setup = setup;
    this.#load = setup.closed!;
    this.#recorder = recorder;
    this.#onDone = onDone;
  }

  get backlog(): number {
    return 0;
  }

  get connections(): number {
    return this.#connections.length - this.#finished;
  }

  start(startAt: number): void {
    const listener: ConnectionListener = {
      response: (_connection, statusCode, bytes, latencyMs) => this.#recorder.response(statusCode, bytes, latencyMs * 1000),
      failure: (_connection, kind, cause) => this.#recorder.error(kind, cause),
      sent: () => this.#recorder.sent(),
      done: () => {
        this.#finished++;
        if (this.#counting && this.#finished === this.#connections.length) this.#onDone();
      },
    };
    const open = () => {
      // Without warm-up a fixed request count applies from the first request.
      this.#counting = this.#setup.warmupS === 0 && this.#load.requests !== undefined;
      for (let i = 0; i < this.#load.connections; i++) {
        const budget = this.#counting ? share(this.#load.requests!, this.#load.connections, i) : undefined;
        this.#connections.push(new HttpConnection({ target: this.#setup.target, request: this.#setup.request, paced: false, pipelining: this.#load.pipelining, budget }, listener));
      }
    };
    setTimeout(open, Math.max(0, startAt - now()));
  }

  measure(): void {
    if (this.#load.requests === undefined || this.#counting) return;
    this.#counting = true;
    this.#connections.forEach((connection, i) => connection.setBudget(share(this.#load.requests!, this.#load.connections, i)));
  }

  drain(): void {
    this.finish();
  }

  finish(): void {
    for (const connection of this.#connections) connection.close();
  }
}

/** Open model: requests released on the arrival schedule, each on a free connection of a bounded pool. */
class OpenDriver implements Driver {
  readonly #setup: ThreadSetup;
  readonly #load: NonNullable<ThreadSetup['open']>;
  readonly #recorder: IntervalRecorder;
  readonly #onDone: () => void;
  readonly #idle: HttpConnection[] = [];
  readonly #pool = new Set<HttpConnection>();
  /** Intended times released by the schedule, waiting for a free connection (FIFO). */
  #due: number[] = [];
  #dueHead = 0;
  #schedule: ArrivalSchedule | null = null;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #finished = false;
  #doneReported = false;
  readonly #listener: ConnectionListener;

  constructor(setup: ThreadSetup, recorder: IntervalRecorder, onDone: () => void) {
    this.#setup = setup;
    this.#load = setup.open!;
    this.#recorder = recorder;
    this.#onDone = onDone;
    this.#listener = {
      response: (connection, statusCode, bytes) => {
        const intendedAt = connection.inFlightSince;
        connection.inFlightSince = null;
        // From the intended send time, not from the write: waiting for a connection is latency too.
        if (intendedAt !== null) this.#recorder.response(statusCode, bytes, (now() - intendedAt) * 1000);
        this.#release(connection);
      },
      failure: (connection, kind, cause) => {
        connection.inFlightSince = null;
        this.#recorder.error(kind, cause);
        this.#release(connection);
      },
      sent: () => this.#recorder.sent(),
    };
  }

  get backlog(): number {
    return this.#due.length - this.#dueHead;
  }

  get connections(): number {
    return this.#pool.size;
  }

  start(startAt: number): void {
    const { rate, phase, durationS, requests } = this.#load;
    const warmupSlots = Math.round(this.#setup.warmupS * rate);
    this.#schedule = new ArrivalSchedule({
      startAt,
      rate,
      phase,
      endAt: startAt + (this.#setup.warmupS + durationS) * 1000,
      ...(requests !== undefined ? { limit: warmupSlots + requests } : {}),
    });
    this.#tick();
  }

  measure(): void {
    // The schedule runs straight through: slots after the warm-up are simply counted as measured.
  }

  drain(): void {
    this.#schedule?.end();
    this.#checkDone();
  }

  finish(): void {
    this.#finished = true;
    this.#schedule?.end();
    if (this.#timer) clearTimeout(this.#timer);
    for (const connection of this.#pool) connection.close();
    this.#pool.clear();
    this.#idle.length = 0;
  }

  #tick = (): void => {
    this.#timer = null;
    if (this.#finished || !this.#schedule) return;
    this.#schedule.release(now(), this.#due);
    this.#dispatch();
    const next = this.#schedule.nextAt();
    if (next === null) {
      this.#checkDone();
      return;
    }
    // Timers fire late by up to ~1 ms; slots that passed meanwhile are released together next tick.
    this.#timer = setTimeout(this.#tick, Math.max(0, next - now()));
  };

  #dispatch(): void {
    while (this.#dueHead < this.#due.length) {
      const connection = this.#freeConnection();
      if (!connection) break;
      connection.send(this.#due[this.#dueHead++]!);
    }
    // Compact the FIFO now and then rather than shift() per request.
    if (this.#dueHead > 4096 && this.#dueHead * 2 > this.#due.length) {
      this.#due = this.#due.slice(this.#dueHead);
      this.#dueHead = 0;
    }
  }

  #freeConnection(): HttpConnection | null {
    while (this.#idle.length > 0) {
      const connection = this.#idle.pop()!;
      if (!connection.closed) return connection;
      this.#pool.delete(connection);
    }
    if (this.#pool.size >= this.#load.connections) return null;
    const connection = new HttpConnection({ target: this.#setup.target, request: this.#setup.request, paced: true }, this.#listener);
    this.#pool.add(connection);
    return connection;
  }

  #release(connection: HttpConnection): void {
    if (this.#finished) return;
    if (connection.closed) this.#pool.delete(connection);
    else this.#idle.push(connection);
    this.#dispatch();
    this.#checkDone();
  }

  /** Reports once that every slot was sent and answered (or failed). */
  #checkDone(): void {
    if (this.#doneReported || this.#schedule?.nextAt() !== null || this.backlog > 0) return;
    for (const connection of this.#pool) if (connection.inFlightSince !== null) return;
    this.#doneReported = true;
    this.#onDone();
  }
}
