// The body of one load worker thread: its share of the connections (closed model) or of the rate
// and the connection maximum (open model), its books, and its event-loop lag. Answers the
// coordinator's messages: `flush` (hand over one phase's interval), `drain` (schedule nothing more;
// say `drained` once nothing measured is in flight), `settle` (the drain is over: fail what is
// left), `finish` (close every connection, settling nothing).

import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { MessagePort } from 'node:worker_threads';
import type { RequestSpec } from '../app/runs/load-profile.ts';
import { ClosedDriver } from './closed-driver.ts';
import { encodeRequest, type Target } from './http-client.ts';
import { IntervalRecorder, type IntervalData, type PhaseTag } from './interval-recorder.ts';
import { OpenDriver } from './open-driver.ts';

export interface ThreadSetup {
  index: number;
  target: Target;
  request: RequestSpec;
  /** Whole seconds of warm-up before the measured window. */
  warmupS: number;
  closed?: { connections: number; pipelining: number; durationS?: number | undefined; requests?: number | undefined };
  /** `maxConnections`: opened on demand up to this many. */
  open?: { rate: number; phase: number; maxConnections: number; requests?: number | undefined; durationS: number };
}

export type ToThread =
  | { type: 'start'; startAt: number }
  | { type: 'flush'; round: number; tag: PhaseTag; at: number; last: boolean }
  | { type: 'drain'; at: number }
  | { type: 'settle' }
  | { type: 'finish' };

export type IntervalMessage = { type: 'interval'; round: number; thread: number; tag: PhaseTag; lagMs: number; backlog: number; connections: number } & IntervalData;

export type FromThread = { type: 'ready' } | IntervalMessage | { type: 'done' } | { type: 'drained' } | { type: 'fatal'; message: string };

/** What a driver is given: its setup, the thread's books, and a way to tell the coordinator. */
export interface DriverContext {
  setup: ThreadSetup;
  recorder: IntervalRecorder;
  post(message: FromThread): void;
}

export interface Driver {
  start(startAt: number): void;
  /** Brings the books up to the boundary `at` (the open model releases the slots due by then). */
  catchUp(at: number): void;
  drain(at: number): void;
  settle(): void;
  finish(): void;
  /** Requests scheduled and waiting for a connection. */
  readonly backlog: number;
  readonly connections: number;
}

/** Splits `total` over `parts` as evenly as whole numbers allow; part `index` of it. */
export function share(total: number, parts: number, index: number): number {
  return Math.floor(total / parts) + (index < total % parts ? 1 : 0);
}

export function runLoadThread(setup: ThreadSetup, port: MessagePort): void {
  const recorder = new IntervalRecorder();
  const lag = monitorEventLoopDelay({ resolution: 10 });
  lag.enable();
  const post = (message: FromThread) => port.postMessage(message);
  const context: DriverContext = { setup, recorder, post };
  const request = encodeRequest(setup.target, setup.request);
  const driver: Driver = setup.closed ? new ClosedDriver(context, request) : new OpenDriver(context, request);

  port.on('message', (message: ToThread) => {
    try {
      switch (message.type) {
        case 'start':
          driver.start(message.startAt);
          break;
        case 'flush': {
          driver.catchUp(message.at);
          const lagMs = lag.count > 0 ? lag.percentile(99) / 1e6 : 0;
          lag.reset();
          const data = recorder.take(message.tag, message.last);
          post({ type: 'interval', round: message.round, thread: setup.index, tag: message.tag, lagMs, backlog: driver.backlog, connections: driver.connections, ...data });
          break;
        }
        case 'drain':
          driver.drain(message.at);
          break;
        case 'settle':
          driver.settle();
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
