// A real Benchlab back end in a child process (tests/support/run-child.ts) running one session, with
// what it says on stdout kept as it arrives: its charted points, every `runs.state` it published
// (what `runs.live` answers) and every host connection change, each with the time it was
// published. Tests kill it mid-run, soak faults pull a link under it or fill its disk. Also what a
// file of such tests shares: the loopback server its runs load and their data dir, and what the
// next start finds of a session a killed back end left.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../agent/agent-harness.ts';
import type { Session } from '../../app/sessions/sessions.ts';
import type { StoredRun } from '../../app/runs/runs.ts';
import { createServices, type Services } from '../../main/services/services.ts';
import { within } from './until.ts';

const RUN_CHILD = resolve(import.meta.dirname, 'run-child.ts');

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

export interface ChildRunSetup {
  /** The loopback test server the runs load. */
  server: TestServer;
  /** The data dir the child back ends share. */
  dir: string;
}

/** What a file of child-run tests shares, made before its tests and removed after them. */
export function childRunSetup(prefix: string): ChildRunSetup {
  const setup = { dir: '' } as ChildRunSetup;
  before(async () => {
    setup.server = await startTestServer();
    setup.dir = mkdtempSync(join(tmpdir(), prefix));
  });
  after(async () => {
    await setup.server?.close();
    if (setup.dir) rmSync(setup.dir, { recursive: true, force: true });
  });
  return setup;
}

/**
 * The next start after a killed back end: the store opened as Benchlab opens it (recovering what was
 * left), the session and its one run found interrupted, and handed to `check` before it closes.
 */
export async function afterNextStart(dataDir: string, sessionId: number, check: (found: { services: Services; session: Session; run: StoredRun }) => void): Promise<void> {
  const services = createServices({ dataDir, transport: 'cli', version: 'test' });
  try {
    const session = services.sessions.get(sessionId);
    assert.equal(session.status, 'interrupted');
    const [run] = services.runs.list(sessionId);
    assert.equal(run?.status, 'interrupted');
    check({ services, session, run: run! });
  } finally {
    await services.close();
  }
}
