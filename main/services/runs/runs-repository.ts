// Runs of a session: one load step each (template, variant, knobs, profile step — with the client
// it lost, if one was), with its status, start and end, and once it ends its summary and merged HDR histogram (stored as bytes, read back
// encoded for Compare's read model).

import { encodeHistogram, type LatencyHistogram } from '../../../app/common/hdr.ts';
import type { RunSummary } from '../../../app/runs/run-summary.ts';
import type { StepDegraded, StoredRun } from '../../../app/runs/runs.ts';
import type { Db } from '../store/database.ts';
import { parseJsonColumn } from '../store/json-column.ts';

export interface NewRun {
  sessionId: number;
  ordinal: number;
  templateId: string;
  variant: string;
  knobs?: Record<string, unknown>;
  step?: Record<string, unknown>;
}

export const RUN_STATUSES = ['pending', 'running', 'completed', 'failed', 'stopped', 'interrupted'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

interface RunRow {
  id: number;
  session_id: number;
  ordinal: number;
  template_id: string;
  variant: string;
  step: string;
  status: string;
  started_at: string | null;
  ended_at: string | null;
  summary: string | null;
  histogram?: Buffer | null;
  sample_count: number;
}

/** A stored run with its merged histogram (encoded; null when it has none). */
export type StoredRunWithHistogram = StoredRun & { histogram: string | null };

function toStoredRun(row: RunRow): StoredRun {
  return {
    id: row.id,
    sessionId: row.session_id,
    ordinal: row.ordinal,
    templateId: row.template_id,
    variant: row.variant,
    step: parseJsonColumn<Record<string, unknown>>(row.step, {}),
    status: row.status,
    startedAt: row.started_at,
    endedAt: row.ended_at,
    summary: parseJsonColumn<RunSummary | null>(row.summary, null),
    sampleCount: row.sample_count,
  };
}

export class RunsRepository {
  readonly #db: Db;
  constructor(db: Db) {
    this.#db = db;
  }

  create(run: NewRun): number {
    const result = this.#db
      .prepare('INSERT INTO run (session_id, ordinal, template_id, variant, knobs, step) VALUES (?, ?, ?, ?, ?, ?)')
      .run(run.sessionId, run.ordinal, run.templateId, run.variant, JSON.stringify(run.knobs ?? {}), JSON.stringify(run.step ?? {}));
    return Number(result.lastInsertRowid);
  }

  markStarted(runId: number, at = new Date()): void {
    this.#db.prepare("UPDATE run SET status = 'running', started_at = ? WHERE id = ?").run(at.toISOString(), runId);
  }

  /** Ends a run with its result: the summary and the merged histogram (stored as compressed HDR bytes). */
  finish(runId: number, status: RunStatus, result: { summary: RunSummary | null; histogram: LatencyHistogram | null }, at = new Date()): void {
    const histogram = result.histogram ? Buffer.from(encodeHistogram(result.histogram), 'base64') : null;
    this.#db
      .prepare('UPDATE run SET status = ?, ended_at = ?, summary = ?, histogram = ? WHERE id = ?')
      .run(status, at.toISOString(), result.summary ? JSON.stringify(result.summary) : null, histogram, runId);
  }

  /** Marks a run's step degraded (a client lost during it): kept in its step JSON, beside the load it ran. */
  markDegraded(runId: number, degraded: StepDegraded): void {
    this.#db.prepare("UPDATE run SET step = json_set(step, '$.degraded', json(?)) WHERE id = ?").run(JSON.stringify(degraded), runId);
  }

  forSession(sessionId: number): StoredRun[] {
    return this.#rows(sessionId, false).map(toStoredRun);
  }

  /** A session's runs with their merged histograms: what a comparison reads. */
  withHistograms(sessionId: number): StoredRunWithHistogram[] {
    return this.#rows(sessionId, true).map((row) => ({ ...toStoredRun(row), histogram: row.histogram ? row.histogram.toString('base64') : null }));
  }

  /** The knobs each run of a session was deployed with, by run id (what an export says of its configuration). */
  knobs(sessionId: number): Map<number, Record<string, unknown>> {
    const rows = this.#db.prepare('SELECT id, knobs FROM run WHERE session_id = ?').all(sessionId) as Array<{ id: number; knobs: string }>;
    return new Map(rows.map((row) => [row.id, parseJsonColumn<Record<string, unknown>>(row.knobs, {})]));
  }

  /** Runs stored as `running`, with their start and the owner token of their session's process: those of a dead one are summarized from their samples. */
  running(): Array<{ id: number; sessionId: number; step: Record<string, unknown>; startedAt: string | null; owner: string | null }> {
    const rows = this.#db
      .prepare("SELECT r.id, r.session_id, r.step, r.started_at, s.owner FROM run r LEFT JOIN session s ON s.id = r.session_id WHERE r.status = 'running'")
      .all() as Array<{ id: number; session_id: number; step: string; started_at: string | null; owner: string | null }>;
    return rows.map((row) => ({ id: row.id, sessionId: row.session_id, step: parseJsonColumn<Record<string, unknown>>(row.step, {}), startedAt: row.started_at, owner: row.owner }));
  }

  #rows(sessionId: number, withHistograms: boolean): RunRow[] {
    const columns = 'r.id, r.session_id, r.ordinal, r.template_id, r.variant, r.step, r.status, r.started_at, r.ended_at, r.summary';
    return this.#db
      .prepare(
        `SELECT ${columns}${withHistograms ? ', r.histogram' : ''}, (SELECT count(*) FROM sample s WHERE s.run_id = r.id AND s.phase = 'measure') AS sample_count
         FROM run r WHERE r.session_id = ? ORDER BY r.ordinal`,
      )
      .all(sessionId) as RunRow[];
  }
}
