// Orderly shutdown of the back end, whichever front door asks (a window closed, Ctrl-C in web mode,
// a CLI command done): no new request is admitted; what runs is ended rather than abandoned (a plan
// cancelled so it reverts its presets, the load stopped so its last second is stored, a deploy
// cancelled so its server is stopped); what is in flight (connect checks, requests admitted before)
// is awaited; each wait has a bound, past which shutdown gives up on it with a log line; then the
// connections and the store close. Whatever still arrives afterwards is dropped by the logger with
// a debug note, never thrown.

import { debugNote, type Logger } from './logger.ts';
import type { RequestGate } from './request-gate.ts';
import { messageOf } from '../../app/common/errors.ts';

/** How long the work shutdown ends may take to end (a plan's revert, a server's stop grace). */
const ENDING_WAIT_MS = 15_000;
/** How long shutdown waits for what finishes by itself (connect checks, requests in flight). */
const FOLLOW_UP_WAIT_MS = 5_000;

export interface ShutdownParts {
  log: Logger;
  requests: RequestGate;
  /** What runs, each ended by `end` (called twice: at once, and after the follow-ups, for what they started). */
  ending: ReadonlyArray<{ what: string; end: () => Promise<unknown> }>;
  /** What finishes by itself, each named; read after the work was told to end. */
  followUps: () => ReadonlyArray<{ what: string; settled: Promise<unknown> }>;
  /** Closed in this order once the waits are over, the store last. */
  closers: ReadonlyArray<() => void>;
  /** Overrides both bounds (tests). */
  waitMs?: number | undefined;
}

export async function shutDown(parts: ShutdownParts): Promise<void> {
  parts.requests.close();
  const endAll = () => parts.ending.map(({ what, end }) => ({ what, settled: end() }));
  const ending = endAll();
  const followUps = [...parts.followUps(), ...parts.requests.inFlight().map(({ name, settled }) => ({ what: `the request ${name}`, settled }))];
  await waitWithin(followUps, parts.waitMs ?? FOLLOW_UP_WAIT_MS, parts.log);
  await waitWithin([...ending, ...endAll()], parts.waitMs ?? ENDING_WAIT_MS, parts.log);
  for (const close of parts.closers) {
    try {
      close();
    } catch (error) {
      debugNote(`shutting down: ${messageOf(error)}`);
    }
  }
}

/** Waits for every one of them up to `ms`; past it, one log line names those given up on. */
async function waitWithin(waits: ReadonlyArray<{ what: string; settled: Promise<unknown> }>, ms: number, log: Logger): Promise<void> {
  const pending = new Set(waits);
  const settled = waits.map((wait) =>
    wait.settled.then(
      () => pending.delete(wait),
      (error: unknown) => {
        pending.delete(wait);
        log.warn('shutdown', `${wait.what} failed while Benchlab shut down: ${(error as Error)?.message ?? String(error)}`);
      },
    ),
  );
  let timer: ReturnType<typeof setTimeout> | undefined;
  const bound = new Promise<void>((done) => (timer = setTimeout(done, ms)));
  await Promise.race([Promise.all(settled), bound]);
  clearTimeout(timer);
  const given = [...new Set([...pending].map((wait) => wait.what))];
  if (given.length > 0) log.warn('shutdown', `gave up waiting for ${given.join(', ')} after ${ms / 1000} s; closing anyway`);
}
