// Drafts: work in progress kept across reloads and restarts (the forms' drafts, form-drafts.ts; the
// app's last plan, kept by the plan runner), one JSON value per key in the `draft` table (migration 3). A value that no longer parses reads as none.

import type { Db } from '../store/database.ts';
import { parseJsonColumn } from '../store/json-column.ts';

/** Stands for a stored value that no longer parses (any JSON value, null too, is a real draft). */
const UNREADABLE = Symbol('unreadable draft');

export class DraftsRepository {
  readonly #db: Db;
  constructor(db: Db) {
    this.#db = db;
  }

  get(key: string): { value: unknown; updatedAt: string } | null {
    const row = this.#db.prepare('SELECT value, updated_at FROM draft WHERE key = ?').get(key) as { value: string; updated_at: string } | undefined;
    if (!row) return null;
    const value = parseJsonColumn<unknown>(row.value, UNREADABLE);
    return value === UNREADABLE ? null : { value, updatedAt: row.updated_at };
  }

  save(key: string, value: unknown): string {
    const updatedAt = new Date().toISOString();
    this.#db
      .prepare('INSERT INTO draft (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at')
      .run(key, JSON.stringify(value), updatedAt);
    return updatedAt;
  }

  clear(key: string): boolean {
    return this.#db.prepare('DELETE FROM draft WHERE key = ?').run(key).changes > 0;
  }
}
