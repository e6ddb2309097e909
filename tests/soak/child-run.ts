// A real Benchlab back end in a child process (tests/support/run-child.ts) running one session
// against the soak lab, with what it said on stdout kept as it arrives: its charted points, every
// `runs.state` it published (what `runs.live` answers) and every host connection change, each with
// the time it was published. A fault can then kill it, pull a link under it or fill its disk.

import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { machineLoad } from './figures.ts';
import type { Random } from './seeded-random.ts';
import { agentPid, type SoakLab } from './soak-lab.ts';
import { until, within } from '../support/until.ts';

const RUN_CHILD = resolve(import.meta.dirname, '..', 'support', 'run-child.ts');

export interface ChildPoint {
  at: number;
  warmup: boolean;
  errorsPerS: number;
}

/** A `runs.state` event: the LiveRun without its profile and steps, plus the steps' failed requests. */
export interface ChildState {
  status: string;
  message: string | null;
  failed: number;
  publishedAt: number;
  [field: string]: unknown;
}

export interface ChildHost {
  hostId: number;
  state: string;
  /** Set while a connected host does not answer. */
  unresponsiveSince: string | null;
  publishedAt: number;
}

export interface ChildRun {
  child: ChildProcess;
  sessionId(): number;
  points: ChildPoint[];
  states: ChildState[];
  hosts: ChildHost[];
  /** Resolves once `count` measured seconds have been charted (each is stored before). */
  measured(count: number, timeoutMs?: number): Promise<void>;
  /** Resolves when the process has exited, with how it ended (`done` status if it said so). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; done: string | null }>;
  stderr(): string;
}

export interface ChildProfile {
  durationS: number;
  rate: number;
}

export function startChildRun(lab: SoakLab, dataDir: string, profile: ChildProfile, options: { exitWhenDone: boolean }): ChildRun {
  return spawnChildRun(dataDir, {
    connect: lab.connect,
    exitWhenDone: options.exitWhenDone,
    profile: { target: lab.server.url, request: { path: '/soak', timeoutMs: 2000 }, load: { model: 'open', rate: profile.rate, durationS: profile.durationS, connections: 10 }, warmupS: 0 },
  });
}

/** The back end in a child process with run-child.ts's start arguments as they are (This machine when nothing is to connect). */
export function spawnChildRun(dataDir: string, start: Record<string, unknown>): ChildRun {
  const child = spawn(process.execPath, [RUN_CHILD, dataDir, JSON.stringify(start)], { stdio: ['ignore', 'pipe', 'pipe'] });
  const points: ChildPoint[] = [];
  const states: ChildState[] = [];
  const hosts: ChildHost[] = [];
  let sessionId = 0;
  let done: string | null = null;
  let failed: string | null = null;
  let stderr = '';
  const waiters = new Set<() => void>();
  let buffer = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    const lines = buffer.split('\n');
    buffer = lines.pop()!;
    for (const line of lines) {
      const message = JSON.parse(line) as { started?: number; point?: ChildPoint; state?: ChildState; host?: ChildHost; done?: string; failed?: string };
      if (message.started) sessionId = message.started;
      if (message.point) points.push(message.point);
      if (message.state) states.push(message.state);
      if (message.host) hosts.push(message.host);
      if (message.done) done = message.done;
      if (message.failed) failed = message.failed;
    }
    for (const waiter of waiters) waiter();
  });
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; done: string | null }>((resolveExit) =>
    child.once('exit', (code, signal) => {
      for (const waiter of waiters) waiter();
      resolveExit({ code, signal, done });
    }),
  );
  return {
    child,
    sessionId: () => sessionId,
    points,
    states,
    hosts,
    measured: (count, timeoutMs = 30_000) =>
      within(
        new Promise<void>((resolveMeasured, reject) => {
          const check = () => {
            if (points.filter((point) => !point.warmup).length >= count) resolveMeasured();
            else if (failed) reject(new Error(`the back end could not start the run: ${failed}`));
            else if (child.exitCode !== null || child.signalCode !== null) reject(new Error(`the back end ended before its run did:\n${stderr}`));
            else return;
            waiters.delete(check);
          };
          waiters.add(check);
          check();
        }),
        `${count} measured seconds`,
        timeoutMs,
      ),
    exited,
    stderr: () => stderr,
  };
}

/** The first `runs.state` published after `since` that names a fault: a message, an end, or a field the plain run has not. */
export function firstReport(states: readonly ChildState[], since: number): { afterMs: number; said: string } | null {
  const plain = new Set(['sessionId', 'name', 'status', 'clientHostId', 'serverHostId', 'currentStep', 'message', 'startedAt', 'endedAt', 'failed', 'publishedAt']);
  for (const state of states) {
    if (state.publishedAt < since) continue;
    const other = Object.entries(state).find(([key, value]) => !plain.has(key) && isSet(value));
    if (state.message || !['starting', 'running', 'pausing'].includes(state.status) || other) {
      // Clock times differ from run to run; the table groups what was said by its words.
      const said = [state.status, state.message, other ? `${other[0]}: ${JSON.stringify(other[1])}` : null]
        .filter(Boolean)
        .join(': ')
        .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, 'TIME')
        .replace(/\d\d:\d\d:\d\d/g, 'HH:MM:SS');
      return { afterMs: state.publishedAt - since, said };
    }
  }
  return null;
}

/** Whether a state field says something: not empty, false, or an object of nothing but nulls (a healthy run's silentSince). */
function isSet(value: unknown): boolean {
  if (value === null || value === undefined || value === false) return false;
  if (typeof value === 'object') return Object.values(value).some(isSet);
  return true;
}

/**
 * When a fault strikes: once the run has measured its first second and its load agent is up, at a
 * random moment up to `withinMs` later (seeded: the moment is the fault's, not a wait for a state).
 * Gives the session, the load agent's pid, the delay chosen and the machine's load at that moment.
 */
export async function faultMoment(run: ChildRun, owner: string, random: Random, withinMs: number): Promise<{ sessionId: number; agent: number; delay: number; loadAverage: number }> {
  await run.measured(1);
  const sessionId = run.sessionId();
  const agent = await until(() => agentPid('client', owner, sessionId, 'load'), 'the load agent pid file', 5000, 20);
  const delay = random.between(0, withinMs);
  await new Promise((resolve) => setTimeout(resolve, delay));
  return { sessionId, agent, delay, loadAverage: machineLoad() };
}
