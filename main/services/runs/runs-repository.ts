// Runs of a session: one load step each (template, variant, knobs, profile step), with its status,
// start and end, and once it ends its summary and merged HDR histogram.

import type { RunSummary } from '../../../app/runs/run-summary.ts';
import type { StoredRun } from '../../../app/runs/runs.ts';
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
  sample_count: number;
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

  /** Ends a run with its result: the summary and the merged histogram (compressed HDR bytes). */
  finish(runId: number, status: RunStatus, result: { summary: RunSummary | null; histogram: Uint8Array | null }, at = new Date()): void {
    this.#db
      .prepare('UPDATE run SET status = ?, ended_at = ?, summary = ?, histogram = ? WHERE id = ?')
      .run(status, at.toISOString(), result.summary ? JSON.stringify(result.summary) : null, result.histogram, runId);
  }

  forSession(sessionId: number): StoredRun[] {
    const rows = this.#db
      .prepare(
        `SELECT r.*, (SELECT count(*) FROM sample s WHERE s.run_id = r.id AND s.phase = 'measure') AS sample_count
         FROM run r WHERE r.session_id = ? ORDER BY r.ordinal`,
      )
      .all(sessionId) as RunRow[];
    return rows.map((row) => ({
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
    }));
  }

  /** Runs left `running` by a Benchlab that died: their ids, to be summarized from their samples. */
  running(): Array<{ id: number; sessionId: number; step: Record<string, unknown> }> {
    const rows = this.#db.prepare("SELECT id, session_id, step FROM run WHERE status = 'running'").all() as Array<{ id: number; session_id: number; step: string }>;
    return rows.map((row) => ({ id: row.id, sessionId: row.session_id, step: parseJsonColumn<Record<string, unknown>>(row.step, {}) }));
  }

  histogram(runId: number): Uint8Array | null {
    const row = this.#db.prepare('SELECT histogram FROM run WHERE id = ?').get(runId) as { histogram: Buffer | null } | undefined;
    return row?.histogram ? new Uint8Array(row.histogram) : null;
  }
}
