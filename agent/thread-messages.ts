// What a load thread and the coordinator say to each other, and what a driver (closed or open
// model) is given: the one vocabulary both sides of the thread boundary import, so neither the
// drivers nor the coordinator depend on the thread's body.

import type { RequestSpec } from '../app/runs/load-profile.ts';
import type { ThinkTime } from '../app/runs/think-time.ts';
import type { Target } from './http-client.ts';
import type { IntervalData, IntervalRecorder, PhaseTag } from './interval-recorder.ts';

export interface ThreadSetup {
  index: number;
  target: Target;
  request: RequestSpec;
  /** Whole seconds of warm-up before the measured window. */
  warmupS: number;
  closed?: { connections: number; pipelining: number; durationS?: number | undefined; requests?: number | undefined; thinkTime?: ThinkTime | undefined };
  /** `maxConnections`: opened on demand up to this many. */
  open?: { rate: number; phase: number; maxConnections: number; requests?: number | undefined; durationS: number };
}

export type ToThread =
  | { type: 'start'; startAt: number }
  | { type: 'flush'; round: number; tag: PhaseTag; at: number; last: boolean }
  | { type: 'drain'; at: number }
  | { type: 'settle' }
  | { type: 'halt'; at: number }
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
  /** The step is cut short at `at` (stop, cap, failure): write nothing more, settle nothing. */
  halt(at: number): void;
  finish(): void;
  /** Requests scheduled and waiting for a connection. */
  readonly backlog: number;
  readonly connections: number;
}

/** Splits `total` over `parts` as evenly as whole numbers allow; part `index` of it. */
export function share(total: number, parts: number, index: number): number {
  return Math.floor(total / parts) + (index < total % parts ? 1 : 0);
}
