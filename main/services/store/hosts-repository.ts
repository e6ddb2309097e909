// Stored host entries: rows of the `host` table mapped to the app's Host model.

import { ApiError } from '../../../app/errors.ts';
import type { Host, HostInput } from '../../../app/hosts.ts';
import type { Db } from './database.ts';

interface HostRow {
  id: number;
  name: string;
  address: string;
  port: number;
  username: string;
  auth_kind: Host['auth'];
  key_path: string | null;
  host_key_fingerprint: string | null;
  created_at: string;
  updated_at: string;
}

function toHost(row: HostRow): Host {
  return {
    id: row.id,
    name: row.name,
    address: row.address,
    port: row.port,
    user: row.username,
    auth: row.auth_kind,
    ...(row.key_path ? { keyPath: row.key_path } : {}),
    hostKeyFingerprint: row.host_key_fingerprint,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function isUniqueNameViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/** Validated input (defaults applied) as the repository stores it. */
export type ValidHostInput = Required<Pick<HostInput, 'name' | 'address' | 'port' | 'user' | 'auth'>> & {
  keyPath?: string | undefined;
};

export class HostsRepository {
  readonly #db: Db;
  constructor(db: Db) {
    this.#db = db;
  }

  list(): Host[] {
    const rows = this.#db.prepare('SELECT * FROM host ORDER BY name COLLATE NOCASE').all() as HostRow[];
    return rows.map(toHost);
  }

  get(id: number): Host {
    const row = this.#db.prepare('SELECT * FROM host WHERE id = ?').get(id) as HostRow | undefined;
    if (!row) throw new ApiError('not_found', `host ${id} does not exist`);
    return toHost(row);
  }

  add(input: ValidHostInput, now = new Date()): Host {
    const stamp = now.toISOString();
    try {
      const result = this.#db
        .prepare(
          `INSERT INTO host (name, address, port, username, auth_kind, key_path, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(input.name, input.address, input.port, input.user, input.auth, input.keyPath ?? null, stamp, stamp);
      return this.get(Number(result.lastInsertRowid));
    } catch (error) {
      if (isUniqueNameViolation(error)) throw new ApiError('conflict', `name: a host named "${input.name}" already exists`);
      throw error;
    }
  }

  update(id: number, input: ValidHostInput, now = new Date()): Host {
    const current = this.get(id);
    // A different machine must not inherit the pinned key of the old one.
    const keepPinnedKey = current.address === input.address && current.port === input.port;
    try {
      this.#db
        .prepare(
          `UPDATE host SET name = ?, address = ?, port = ?, username = ?, auth_kind = ?, key_path = ?,
             host_key_fingerprint = CASE WHEN ? THEN host_key_fingerprint END,
             host_key_pinned_at = CASE WHEN ? THEN host_key_pinned_at END,
             updated_at = ?
           WHERE id = ?`,
        )
        .run(
          input.name,
          input.address,
          input.port,
          input.user,
          input.auth,
          input.keyPath ?? null,
          keepPinnedKey ? 1 : 0,
          keepPinnedKey ? 1 : 0,
          now.toISOString(),
          id,
        );
    } catch (error) {
      if (isUniqueNameViolation(error)) throw new ApiError('conflict', `name: a host named "${input.name}" already exists`);
      throw error;
    }
    return this.get(id);
  }

  remove(id: number): boolean {
    const pending = this.#db
      .prepare("SELECT count(*) AS n FROM change WHERE host_id = ? AND status IN ('pending', 'applied')")
      .get(id) as { n: number };
    if (pending.n > 0) {
      throw new ApiError('conflict', 'this host has preset changes that are not reverted yet: revert them before removing it');
    }
    return this.#db.prepare('DELETE FROM host WHERE id = ?').run(id).changes > 0;
  }
}
