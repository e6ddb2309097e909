// The sessions library's reads and edits over `session`: entries with the templates they ran and
// their hosts' names in one query, notes and tags, duplicating a session as a linked draft, and
// linking a session re-run from another to its origin.

import { ApiError } from '../../../app/errors.ts';
import type { LibraryEntry } from '../../../app/session-library.ts';
import type { SessionStatus } from '../../../app/sessions.ts';
import type { Db } from './database.ts';

interface LibraryRow {
  id: number;
  name: string;
  notes: string;
  tags: string;
  status: SessionStatus;
  client_host_id: number | null;
  server_host_id: number | null;
  origin_session_id: number | null;
  created_at: string;
  started_at: string | null;
  ended_at: string | null;
  run_count: number;
  templates: string | null;
  client_host: string | null;
  server_host: string | null;
}

function tagsOf(text: string): string[] {
  try {
    const parsed = JSON.parse(text) as unknown;
    return Array.isArray(parsed) ? parsed.filter((tag): tag is string => typeof tag === 'string') : [];
  } catch {
    return [];
  }
}

export class LibraryRepository {
  readonly #db: Db;
  constructor(db: Db) {
    this.#db = db;
  }

  list(): LibraryEntry[] {
    const rows = this.#db
      .prepare(
        `SELECT s.id, s.name, s.notes, s.tags, s.status, s.client_host_id, s.server_host_id, s.origin_session_id,
                s.created_at, s.started_at, s.ended_at,
                (SELECT count(*) FROM run r WHERE r.session_id = s.id) AS run_count,
                (SELECT json_group_array(DISTINCT r.template_id) FROM run r WHERE r.session_id = s.id) AS templates,
                c.name AS client_host, v.name AS server_host
         FROM session s
         LEFT JOIN host c ON c.id = s.client_host_id
         LEFT JOIN host v ON v.id = s.server_host_id
         ORDER BY s.created_at DESC, s.id DESC`,
      )
      .all() as LibraryRow[];
    return rows.map((row) => ({
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
      notes: row.notes,
      templates: tagsOf(row.templates ?? '[]'),
      clientHost: row.client_host,
      serverHost: row.server_host,
      originSessionId: row.origin_session_id,
    }));
  }

  update(id: number, edit: { notes?: string; tags?: string[] }): void {
    const changes = this.#db
      .prepare('UPDATE session SET notes = coalesce(?, notes), tags = coalesce(?, tags) WHERE id = ?')
      .run(edit.notes ?? null, edit.tags ? JSON.stringify(edit.tags) : null, id).changes;
    if (changes === 0) throw new ApiError('not_found', `session ${id} does not exist`);
  }

  /** A new draft with the same hosts, configuration, notes and tags, linked to the original. */
  duplicate(id: number, name: string, now = new Date()): number {
    const result = this.#db
      .prepare(
        `INSERT INTO session (name, notes, tags, client_host_id, server_host_id, config, status, origin_session_id, created_at)
         SELECT ?, notes, tags, client_host_id, server_host_id, config, 'draft', id, ? FROM session WHERE id = ?`,
      )
      .run(name, now.toISOString(), id);
    if (result.changes === 0) throw new ApiError('not_found', `session ${id} does not exist`);
    return Number(result.lastInsertRowid);
  }

  setOrigin(id: number, originId: number): void {
    this.#db.prepare('UPDATE session SET origin_session_id = ? WHERE id = ?').run(originId, id);
  }
}
