// Stored host entries: rows of the `host` table mapped to the app's Host model.

import { ApiError } from '../../../app/common/errors.ts';
import type { Host, HostInput } from '../../../app/hosts/hosts.ts';
import type { Db } from '../store/database.ts';

interface HostRow {
  id: number;
  name: string;
  kind: Host['kind'];
  jump_host_id: number | null;
  address: string;
  port: number;
  username: string;
  auth_kind: Host['auth'];
  key_path: string | null;
  host_key_fingerprint: string | null;
  created_at: string;
  updated_at: string;
}

/** address, port, username, auth_kind, key_path and jump_host_id of a host entry, in that order. */
function connectionColumns(input: ValidHostInput): Array<string | number | null> {
  return [input.address, input.port, input.user, input.auth, input.keyPath ?? null, input.jumpHostId ?? null];
}

function toHost(row: HostRow): Host {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    jumpHostId: row.jump_host_id,
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
  jumpHostId?: number | null | undefined;
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

  /** A host's name, or null when it was removed since (a stored session may outlive its hosts). */
  nameOf(id: number): string | null {
    const row = this.#db.prepare('SELECT name FROM host WHERE id = ?').get(id) as { name: string } | undefined;
    return row?.name ?? null;
  }

  #checkJumpHost(jumpHostId: number | null | undefined, selfId?: number): void {
    if (jumpHostId === null || jumpHostId === undefined) return;
    if (jumpHostId === selfId) throw new ApiError('invalid_args', 'jumpHostId: a host cannot be its own jump host');
    const jump = this.get(jumpHostId);
    if (jump.kind === 'local') throw new ApiError('invalid_args', 'jumpHostId: "This machine" cannot be a jump host');
  }

  add(input: ValidHostInput & { kind?: Host['kind'] }, now = new Date()): Host {
    const stamp = now.toISOString();
    this.#checkJumpHost(input.jumpHostId);
    try {
      const result = this.#db
        .prepare(
          `INSERT INTO host (name, kind, address, port, username, auth_kind, key_path, jump_host_id, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          input.name,
          input.kind ?? 'ssh',
          ...connectionColumns(input),
          stamp,
          stamp,
        );
      return this.get(Number(result.lastInsertRowid));
    } catch (error) {
      if (isUniqueNameViolation(error)) throw new ApiError('conflict', `name: a host named "${input.name}" already exists`);
      throw error;
    }
  }

  update(id: number, input: ValidHostInput, now = new Date()): Host {
    const current = this.get(id);
    if (current.kind === 'local') throw new ApiError('conflict', '"This machine" is not editable');
    this.#checkJumpHost(input.jumpHostId, id);
    // A different machine must not inherit the pinned key of the old one.
    const keepPinnedKey = current.address === input.address && current.port === input.port;
    try {
      this.#db
        .prepare(
          `UPDATE host SET name = ?, address = ?, port = ?, username = ?, auth_kind = ?, key_path = ?, jump_host_id = ?,
             host_key_fingerprint = CASE WHEN ? THEN host_key_fingerprint END,
             host_key_pinned_at = CASE WHEN ? THEN host_key_pinned_at END,
             updated_at = ?
           WHERE id = ?`,
        )
        .run(
          input.name,
          ...connectionColumns(input),
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

  /** Pins a host key fingerprint (first use, or the user's explicit replacement). */
  pinKey(id: number, fingerprint: string, now = new Date()): Host {
    this.get(id);
    this.#db
      .prepare('UPDATE host SET host_key_fingerprint = ?, host_key_pinned_at = ?, updated_at = ? WHERE id = ?')
      .run(fingerprint, now.toISOString(), now.toISOString(), id);
    return this.get(id);
  }

  remove(id: number): boolean {
    return this.#db.transaction(() => {
      const pending = this.#db
        .prepare("SELECT count(*) AS n FROM change WHERE host_id = ? AND status IN ('pending', 'applied')")
        .get(id) as { n: number };
      if (pending.n > 0) {
        throw new ApiError('conflict', 'this host has preset changes that are not reverted yet: revert them before removing it');
      }
      // change.host_id is ON DELETE RESTRICT: the settled (reverted/failed) journal rows of this host go with it.
      this.#db.prepare("DELETE FROM change WHERE host_id = ? AND status IN ('reverted', 'failed')").run(id);
      return this.#db.prepare('DELETE FROM host WHERE id = ?').run(id).changes > 0;
    })();
  }
}
