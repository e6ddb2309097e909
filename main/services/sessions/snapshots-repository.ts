// host_snapshot rows: the system info of a host as captured at connect time (no session), and each
// session's own snapshot of its hosts taken at its start (session_id set; the host facts with the
// pre-flight findings as JSON in `info`). A session reads only its own rows, never a host's latest.

import { z } from 'zod';
import { HostFacts, NoiseFinding, type SessionHostFacts } from '../../../app/hosts/host-facts.ts';
import { SystemInfo } from '../../../app/hosts/system-info.ts';
import { parseJsonColumn } from '../store/json-column.ts';
import type { Db } from '../store/database.ts';

/** What one session row holds: a host's facts and the findings about it (or about both hosts). */
const SessionRow = HostFacts.extend({ findings: z.array(NoiseFinding) });

export class SnapshotsRepository {
  readonly #db: Db;
  constructor(db: Db) {
    this.#db = db;
  }

  /** A host's facts read outside any session (the Hosts page); no session ever reads these. */
  add(hostId: number, info: SystemInfo): void {
    this.#db.prepare('INSERT INTO host_snapshot (host_id, session_id, taken_at, info) VALUES (?, NULL, ?, ?)').run(hostId, info.takenAt, JSON.stringify(info));
  }

  latest(hostId: number): SystemInfo | null {
    const row = this.#db
      .prepare('SELECT info FROM host_snapshot WHERE host_id = ? ORDER BY taken_at DESC, id DESC LIMIT 1')
      .get(hostId) as { info: string } | undefined;
    if (!row) return null;
    // A snapshot from an older Benchlab may lack newer fields: better none than a wrong one.
    const parsed = SystemInfo.safeParse(parseJsonColumn<unknown>(row.info, null));
    return parsed.success ? parsed.data : null;
  }

  /** Stores a session's snapshot: one row per host, each with the findings about it or both hosts. */
  addForSession(sessionId: number, hostIds: { client: number; server: number | null }, snapshot: SessionHostFacts): void {
    const insert = this.#db.prepare('INSERT INTO host_snapshot (host_id, session_id, taken_at, info) VALUES (?, ?, ?, ?)');
    const stored = (['client', 'server'] as const).filter((role) => snapshot[role] !== null && hostIds[role] !== null);
    // A finding about a host whose facts could not be read rides with the other host's row.
    const rowOf = (host: NoiseFinding['host']) => (host !== 'both' && stored.includes(host) ? host : stored[0]);
    this.#db.transaction(() => {
      for (const role of stored) {
        const findings = snapshot.findings.filter((finding) => finding.host === 'both' || rowOf(finding.host) === role);
        insert.run(hostIds[role], sessionId, snapshot[role]!.takenAt, JSON.stringify({ ...snapshot[role], findings }));
      }
    })();
  }

  /** The session's own snapshot, or null when none was taken (older sessions): never another's. */
  forSession(sessionId: number): SessionHostFacts | null {
    const rows = this.#db.prepare('SELECT info FROM host_snapshot WHERE session_id = ? ORDER BY id').all(sessionId) as Array<{ info: string }>;
    const snapshot: SessionHostFacts = { client: null, server: null, findings: [] };
    const seen = new Set<string>();
    for (const row of rows) {
      const parsed = SessionRow.safeParse(parseJsonColumn<unknown>(row.info, null));
      if (!parsed.success) continue;
      const { findings, ...facts } = parsed.data;
      snapshot[facts.role] = facts;
      for (const finding of findings) {
        const key = JSON.stringify(finding);
        if (!seen.has(key)) snapshot.findings.push(finding);
        seen.add(key);
      }
    }
    return snapshot.client || snapshot.server ? snapshot : null;
  }
}
