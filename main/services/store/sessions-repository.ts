// Stored sessions: listing, reading, renaming and deleting rows of `session` (runs cascade).

import { ApiError } from '../../../app/errors.ts';
import type { Session, SessionStatus, SessionSummary } from '../../../app/sessions.ts';
import type { Db } from './database.ts';

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

function parseJson<T>(text: string, fallback: T): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

function toSummary(row: SessionRow): SessionSummary {
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    tags: parseJson<string[]>(row.tags, []),
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
  constructor(db: Db) {
    this.#db = db;
  }

  list(search?: string): SessionSummary[] {
    const term = search?.trim();
    const rows = term
      ? (this.#db
          .prepare(`${SELECT_WITH_RUN_COUNT} WHERE s.name LIKE ? ESCAPE '\\' OR s.tags LIKE ? ESCAPE '\\' ORDER BY s.created_at DESC, s.id DESC`)
          .all(...Array(2).fill(`%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)) as SessionRow[])
      : (this.#db.prepare(`${SELECT_WITH_RUN_COUNT} ORDER BY s.created_at DESC, s.id DESC`).all() as SessionRow[]);
    return rows.map(toSummary);
  }

  get(id: number): Session {
    const row = this.#db.prepare(`${SELECT_WITH_RUN_COUNT} WHERE s.id = ?`).get(id) as SessionRow | undefined;
    if (!row) throw new ApiError('not_found', `session ${id} does not exist`);
    return {
      ...toSummary(row),
      notes: row.notes,
      config: parseJson<Record<string, unknown>>(row.config, {}),
      originSessionId: row.origin_session_id,
    };
  }

  create(session: NewSession, now = new Date()): Session {
    const result = this.#db
      .prepare(
        `INSERT INTO session (name, notes, tags, client_host_id, server_host_id, config, status, origin_session_id, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
      );
    return this.get(Number(result.lastInsertRowid));
  }

  /** Moves a session to a status; `started`/`ended` stamp its start and end. */
  setStatus(id: number, status: SessionStatus, stamp: { started?: Date; ended?: Date } = {}): void {
    this.#db
      .prepare('UPDATE session SET status = ?, started_at = coalesce(?, started_at), ended_at = coalesce(?, ended_at) WHERE id = ?')
      .run(status, stamp.started?.toISOString() ?? null, stamp.ended?.toISOString() ?? null, id);
  }

  /** Sessions still `running` when Benchlab starts were cut off by a crash or kill: say so. Returns their ids. */
  interruptRunning(now = new Date()): number[] {
    const ids = (this.#db.prepare("SELECT id FROM session WHERE status = 'running'").all() as Array<{ id: number }>).map((row) => row.id);
    this.#db.prepare("UPDATE session SET status = 'interrupted', ended_at = coalesce(ended_at, ?) WHERE status = 'running'").run(now.toISOString());
    return ids;
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
}
