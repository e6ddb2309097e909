// host_snapshot rows: the system info of a host as captured at connect time or session start.

import { SystemInfo } from '../../../app/system-info.ts';
import type { Db } from './database.ts';

export class SnapshotsRepository {
  readonly #db: Db;
  constructor(db: Db) {
    this.#db = db;
  }

  add(hostId: number, info: SystemInfo, sessionId: number | null = null): void {
    this.#db
      .prepare('INSERT INTO host_snapshot (host_id, session_id, taken_at, info) VALUES (?, ?, ?, ?)')
      .run(hostId, sessionId, info.takenAt, JSON.stringify(info));
  }

  latest(hostId: number): SystemInfo | null {
    const row = this.#db
      .prepare('SELECT info FROM host_snapshot WHERE host_id = ? ORDER BY taken_at DESC, id DESC LIMIT 1')
      .get(hostId) as { info: string } | undefined;
    if (!row) return null;
    // A snapshot from an older Benchlab may lack newer fields: better none than a wrong one.
    const parsed = SystemInfo.safeParse(JSON.parse(row.info));
    return parsed.success ? parsed.data : null;
  }
}
