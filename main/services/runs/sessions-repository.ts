// Stored sessions: listing, reading, renaming and deleting rows of `session` (runs cascade), and the
// sessions library's reads and edits: entries with their templates and hosts' names, notes and
// tags, duplicating a session as a linked draft, and linking a re-run to its origin. A session set
// running is stamped with this process's owner token, so other processes sharing the store leave it be.

import { ApiError } from '../../../app/common/errors.ts';
import type { RunSummary } from '../../../app/runs/run-summary-schema.ts';
import type { LibraryEntry, SessionHeadline } from '../../../app/sessions/session-library.ts';
import { pickBestStep, type StepCandidate } from '../../../app/sessions/best-step.ts';
import type { Session, SessionStatus, SessionSummary } from '../../../app/sessions/sessions.ts';
import { recordedDatabaseLine } from '../../../app/templates/recorded-database.ts';
import type { Db } from '../store/database.ts';
import { parseJsonColumn } from '../store/json-column.ts';
import { processOwner } from '../store/process-owner.ts';

interface SessionRow {
  id: number;
  name: string;
  notes: string;
  tags: string;
  client_host_id: number | null;
  server_host_id: number | null;
  config: string;
  status: SessionStatus;
  origin_session_id: number | null;
  created_at: string;
  started_at: string | null;
  ended_at: string | null;
  run_count: number;
}


/** A library row: the session's columns but its config, with its templates, hosts' names and best run. */
interface LibraryRow extends Omit<SessionRow, 'config'> {
  templates: string | null;
  client_host: string | null;
  server_host: string | null;
  imported_from: string | null;
  database: string | null;
}

/** A run with a stored summary: a candidate for its session's headline. */
interface MeasuredRow {
  session_id: number;
  id: number;
  ordinal: number;
  status: string;
  step_label: string;
  summary: string;
  load: string | null;
}

/** The private database the session's deployment ran with, in one line; null when it recorded none. */
function databaseLineOf(column: string | null): string | null {
  return recordedDatabaseLine({ database: parseJsonColumn<unknown>(column, null) });
}

/** The headline of a session: its best step's summary as the summarizer stored it (best-step.ts says which). */
function headlineOf(rows: readonly MeasuredRow[]): SessionHeadline | null {
  const candidates: StepCandidate[] = rows.flatMap((row) => {
    const summary = parseJsonColumn<RunSummary | null>(row.summary, null);
    if (!summary || typeof summary.requestsPerSecond !== 'number') return [];
    return [{ runId: row.id, ordinal: row.ordinal, status: row.status, stepLabel: row.step_label, summary, load: parseJsonColumn<unknown>(row.load, null) }];
  });
  const best = pickBestStep(candidates);
  if (!best) return null;
  const { candidate, signs } = best;
  return {
    runId: candidate.runId,
    requestsPerSecond: candidate.summary.requestsPerSecond,
    p99Us: candidate.summary.p99Us ?? null,
    failed: candidate.summary.failed ?? 0,
    notSent: candidate.summary.books?.notSent ?? null,
    steps: candidates.length,
    stepLabel: candidate.stepLabel,
    stepStatus: candidate.status,
    saturation: signs,
  };
}

function tagsOf(text: string): string[] {
  const parsed = parseJsonColumn<unknown>(text, []);
  return Array.isArray(parsed) ? parsed.filter((tag): tag is string => typeof tag === 'string') : [];
}

function toSummary(row: Omit<SessionRow, 'config'>): SessionSummary {
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    tags: tagsOf(row.tags),
    clientHostId: row.client_host_id,
    serverHostId: row.server_host_id,
    runCount: row.run_count,
    createdAt: row.created_at,
    startedAt: row.started_at,
    endedAt: row.ended_at,
  };
}

const SELECT_WITH_RUN_COUNT = `
  SELECT s.*, (SELECT count(*) FROM run r WHERE r.session_id = s.id) AS run_count FROM session s`;

export interface NewSession {
  name: string;
  notes?: string;
  tags?: string[];
  clientHostId?: number | null;
  serverHostId?: number | null;
  config?: Record<string, unknown>;
  status?: SessionStatus;
  originSessionId?: number | null;
}

export class SessionsRepository {
  readonly #db: Db;
  /** The owner token stamped on the sessions this process runs. */
  readonly #owner = processOwner();
  constructor(db: Db) {
    this.#db = db;
  }

  list(): SessionSummary[] {
    const rows = this.#db.prepare(`${SELECT_WITH_RUN_COUNT} ORDER BY s.created_at DESC, s.id DESC`).all() as SessionRow[];
    return rows.map(toSummary);
  }

  get(id: number): Session {
    const row = this.#db.prepare(`${SELECT_WITH_RUN_COUNT} WHERE s.id = ?`).get(id) as SessionRow | undefined;
    if (!row) throw new ApiError('not_found', `session ${id} does not exist`);
    return {
      ...toSummary(row),
      notes: row.notes,
      config: parseJsonColumn<Record<string, unknown>>(row.config, {}),
      originSessionId: row.origin_session_id,
    };
  }

  create(session: NewSession, now = new Date()): Session {
    const result = this.#db
      .prepare(
        `INSERT INTO session (name, notes, tags, client_host_id, server_host_id, config, status, origin_session_id, created_at, owner)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        session.name,
        session.notes ?? '',
        JSON.stringify(session.tags ?? []),
        session.clientHostId ?? null,
        session.serverHostId ?? null,
        JSON.stringify(session.config ?? {}),
        session.status ?? 'draft',
        session.originSessionId ?? null,
        now.toISOString(),
        session.status === 'running' ? this.#owner : null,
      );
    return this.get(Number(result.lastInsertRowid));
  }

  /** Moves a session to a status; `started`/`ended` stamp its start and end. Set running, it is this process's. */
  setStatus(id: number, status: SessionStatus, stamp: { started?: Date; ended?: Date } = {}): void {
    this.#db
      .prepare(
        `UPDATE session SET status = ?, started_at = coalesce(?, started_at), ended_at = coalesce(?, ended_at),
                owner = CASE WHEN ? = 'running' THEN ? ELSE owner END WHERE id = ?`,
      )
      .run(status, stamp.started?.toISOString() ?? null, stamp.ended?.toISOString() ?? null, status, this.#owner, id);
  }

  /** The sessions stored as `running`, with the owner token of the process that runs them (null before owners were kept). */
  running(): Array<{ id: number; owner: string | null }> {
    return this.#db.prepare("SELECT id, owner FROM session WHERE status = 'running' ORDER BY id").all() as Array<{ id: number; owner: string | null }>;
  }

  /** The sessions stored as `running`, with their name, server host and target (what a server about to be replaced is loaded by). */
  runningLoads(): Array<{ id: number; name: string; owner: string | null; serverHostId: number | null; target: string | null }> {
    return this.#db
      .prepare("SELECT id, name, owner, server_host_id AS serverHostId, CASE WHEN json_valid(config) THEN json_extract(config, '$.target') END AS target FROM session WHERE status = 'running' ORDER BY id")
      .all() as Array<{ id: number; name: string; owner: string | null; serverHostId: number | null; target: string | null }>;
  }

  /**
   * Marks these sessions interrupted (those still `running`): their process ended without ending them.
   * Each ends when its last run did (its runs are ended first, at their last stored second), else when
   * it started; `now` only for a session without either.
   */
  interrupt(ids: readonly number[], now = new Date()): void {
    const mark = this.#db.prepare(
      `UPDATE session SET status = 'interrupted',
              ended_at = coalesce(ended_at, (SELECT max(r.ended_at) FROM run r WHERE r.session_id = session.id), started_at, ?)
       WHERE id = ? AND status = 'running'`,
    );
    this.#db.transaction(() => {
      for (const id of ids) mark.run(now.toISOString(), id);
    })();
  }

  rename(id: number, name: string): Session {
    const changes = this.#db.prepare('UPDATE session SET name = ? WHERE id = ?').run(name, id).changes;
    if (changes === 0) throw new ApiError('not_found', `session ${id} does not exist`);
    return this.get(id);
  }

  delete(id: number): boolean {
    const session = this.get(id);
    if (session.status === 'running') throw new ApiError('conflict', 'a running session cannot be deleted: stop it first');
    return this.#db.prepare('DELETE FROM session WHERE id = ?').run(id).changes > 0;
  }

  /**
   * Library entries: each session with the templates it ran, its hosts' names and its headline (the
   * run with a result and the most requests/s, and how many runs have one), in one query.
   */
  library(): LibraryEntry[] {
    const rows = this.#db
      .prepare(
        `SELECT s.id, s.name, s.notes, s.tags, s.status, s.client_host_id, s.server_host_id, s.origin_session_id,
                s.created_at, s.started_at, s.ended_at,
                (SELECT count(*) FROM run r WHERE r.session_id = s.id) AS run_count,
                (SELECT json_group_array(DISTINCT r.template_id) FROM run r WHERE r.session_id = s.id) AS templates,
                c.name AS client_host, v.name AS server_host,
                CASE WHEN json_valid(s.config) THEN json_extract(s.config, '$.imported.source') END AS imported_from,
                CASE WHEN json_valid(s.config) THEN json_extract(s.config, '$.database') END AS database
         FROM session s
         LEFT JOIN host c ON c.id = s.client_host_id
         LEFT JOIN host v ON v.id = s.server_host_id
         ORDER BY s.created_at DESC, s.id DESC`,
      )
      .all() as LibraryRow[];
    // Every run with a summary, for the headline's pick (one read, grouped by session here).
    const measured = new Map<number, MeasuredRow[]>();
    const runs = this.#db
      .prepare(
        `SELECT r.session_id, r.id, r.ordinal, r.status, r.summary,
                coalesce(CASE WHEN json_valid(r.step) THEN json_extract(r.step, '$.label') END, 'step ' || r.ordinal) AS step_label,
                CASE WHEN json_valid(r.step) THEN json_extract(r.step, '$.load') END AS load
         FROM run r
         WHERE r.summary IS NOT NULL AND json_valid(r.summary) AND json_type(r.summary, '$.requestsPerSecond') IN ('integer', 'real')
         ORDER BY r.session_id, r.ordinal`,
      )
      .all() as MeasuredRow[];
    for (const run of runs) {
      const list = measured.get(run.session_id);
      if (list) list.push(run);
      else measured.set(run.session_id, [run]);
    }
    return rows.map((row) => ({
      ...toSummary(row),
      notes: row.notes,
      templates: tagsOf(row.templates ?? '[]'),
      clientHost: row.client_host,
      serverHost: row.server_host,
      originSessionId: row.origin_session_id,
      importedFrom: typeof row.imported_from === 'string' ? row.imported_from : null,
      database: databaseLineOf(row.database),
      headline: headlineOf(measured.get(row.id) ?? []),
    }));
  }

  updateNotesAndTags(id: number, edit: { notes?: string; tags?: string[] }): void {
    const changes = this.#db
      .prepare('UPDATE session SET notes = coalesce(?, notes), tags = coalesce(?, tags) WHERE id = ?')
      .run(edit.notes ?? null, edit.tags ? JSON.stringify(edit.tags) : null, id).changes;
    if (changes === 0) throw new ApiError('not_found', `session ${id} does not exist`);
  }

  /** A new draft with the same hosts, configuration, notes and tags, linked to the original. */
  duplicateAsDraft(id: number, name: string, now = new Date()): number {
    const result = this.#db
      .prepare(
        `INSERT INTO session (name, notes, tags, client_host_id, server_host_id, config, status, origin_session_id, created_at)
         SELECT ?, notes, tags, client_host_id, server_host_id, config, 'draft', id, ? FROM session WHERE id = ?`,
      )
      .run(name, now.toISOString(), id);
    if (result.changes === 0) throw new ApiError('not_found', `session ${id} does not exist`);
    return Number(result.lastInsertRowid);
  }

  /** Links a session started by "Run again" to the one it repeats. */
  setOrigin(id: number, originId: number): void {
    this.#db.prepare('UPDATE session SET origin_session_id = ? WHERE id = ?').run(originId, id);
  }
}
