// What a fault left in the store: `PRAGMA integrity_check` on the file as the fault left it, then
// the next start (real services on the data dir: it marks what a dead process left interrupted),
// the books of every stored run by the books audit's rules, and the seconds of samples lost, found
// from the agent's own second boundaries: every boundary the agent reached before the cut-off
// should be a stored second.

import Database from 'better-sqlite3';
import { join } from 'node:path';
import { DATABASE_FILE_NAME } from '../../main/services/store/database.ts';
import { auditProblems } from '../../main/services/runs/books-audit.ts';
import { SamplesRepository } from '../../main/services/runs/samples-repository.ts';
import { createServices } from '../../main/services/services.ts';

export interface StoreCheck {
  integrityOk: boolean;
  /** The session's status after the next start. */
  sessionStatus: string | null;
  /** Problems of the stored runs' books (empty: balanced); null when no run was stored. */
  booksProblems: string[] | null;
  /** The agent's boundaries (epoch ms) of the stored measured seconds, in order. */
  storedAts: number[];
  /** The stored measured seconds' indexes, run by run, in order. */
  storedIndexes: number[];
  /** The session's end time as stored, epoch ms. */
  endedAt: number | null;
}

export function integrityOk(dataDir: string): boolean {
  const db = new Database(join(dataDir, DATABASE_FILE_NAME));
  try {
    return (db.pragma('integrity_check', { simple: true }) as string) === 'ok';
  } finally {
    db.close();
  }
}

/** Checks the file as it is, then starts Benchlab on it and reads what the session kept. */
export async function checkStore(dataDir: string, sessionId: number): Promise<StoreCheck> {
  const integrity = integrityOk(dataDir);
  const services = createServices({ dataDir, transport: 'cli', version: 'soak' });
  try {
    if (sessionId === 0) return { integrityOk: integrity, sessionStatus: null, booksProblems: null, storedAts: [], storedIndexes: [], endedAt: null };
    const session = services.sessions.get(sessionId);
    const runs = services.runs.list(sessionId);
    const samples = new SamplesRepository(services.db);
    const measured = runs.flatMap((run) => samples.forRun(run.id).filter((second) => second.phase === 'measure'));
    const storedAts = measured.map((second) => second.clientMetrics?.at ?? 0);
    const audited = runs.filter((run) => run.summary).map((run) => ({ runId: run.id, status: run.status, books: run.summary!.books, pid: process.pid }));
    return {
      integrityOk: integrity,
      sessionStatus: session.status,
      booksProblems: audited.length === 0 ? null : auditProblems(audited),
      storedAts,
      storedIndexes: measured.map((second) => second.second),
      endedAt: session.endedAt ? Date.parse(session.endedAt) : null,
    };
  } finally {
    await services.close();
  }
}

/**
 * Whole seconds the agent measured up to `cutoff` (epoch ms) that the store does not hold: the
 * agent ends a second every 1000 ms from its first, so each boundary up to the cut-off is a second
 * that was measured; at most the one in flight at a kill cannot have been stored.
 */
export function secondsLost(storedAts: readonly number[], firstAt: number | null, cutoff: number): number | null {
  if (firstAt === null) return null;
  const measured = Math.floor((cutoff - firstAt) / 1000) + 1;
  const stored = storedAts.filter((at) => at <= cutoff).length;
  return Math.max(0, measured - stored);
}
