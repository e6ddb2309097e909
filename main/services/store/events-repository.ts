// Stored log lines (`event` table): what happened, so a session's story can be read back later.

import type { LogLine } from '../../../app/contract.ts';
import type { Db } from './database.ts';

export class EventsRepository {
  readonly #db: Db;
  constructor(db: Db) {
    this.#db = db;
  }

  /** Stores the line; false when the store is already closed (shutdown is over), so nothing is written. */
  append(line: LogLine, refs: { sessionId?: number; hostId?: number } = {}): boolean {
    if (!this.#db.open) return false;
    this.#db
      .prepare('INSERT INTO event (session_id, host_id, at, level, source, message) VALUES (?, ?, ?, ?, ?, ?)')
      .run(refs.sessionId ?? null, refs.hostId ?? null, line.at, line.level, line.source, line.message);
    return true;
  }

  recent(limit = 200): LogLine[] {
    return (
      this.#db
        .prepare('SELECT at, level, source, message FROM event ORDER BY id DESC LIMIT ?')
        .all(limit) as LogLine[]
    ).reverse();
  }
}
