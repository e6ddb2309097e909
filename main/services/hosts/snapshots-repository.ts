// host_snapshot rows: the system info of a host as captured at connect time (no session), and each
// session's own snapshot of its hosts taken at its start (session_id set; the host facts with the
// pre-flight findings as JSON in `info`): one row per client, in the session's client order, and
// one for the server. A session reads only its own rows, never a host's latest.

import { z } from 'zod';
import { HostFacts, NoiseFinding, type SessionHostFacts } from '../../../app/hosts/host-facts.ts';
import { SystemInfo } from '../../../app/hosts/system-info.ts';
import { parseJsonColumn } from '../store/json-column.ts';
import type { Db } from '../store/database.ts';

/** What one session row holds: a host's facts and the findings about it (or about several hosts). */
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

  /**
   * Stores a session's snapshot: one row per host read, clients in order (their order is the rows'),
   * each with the findings about it; a finding about several hosts rides with each of them, one about
   * a host that could not be read with the first row.
   */
  addForSession(sessionId: number, hosts: ReadonlyArray<{ hostId: number; facts: HostFacts }>, findings: readonly NoiseFinding[]): void {
    const insert = this.#db.prepare('INSERT INTO host_snapshot (host_id, session_id, taken_at, info) VALUES (?, ?, ?, ?)');
    const rows = [...hosts.filter((host) => host.facts.role === 'client'), ...hosts.filter((host) => host.facts.role === 'server')];
    const about = (finding: NoiseFinding, facts: HostFacts) => finding.host === facts.role && (finding.hostName === undefined || finding.hostName === facts.hostName);
    this.#db.transaction(() => {
      for (const [index, { hostId, facts }] of rows.entries()) {
        const own = findings.filter((finding) => finding.host === 'both' || about(finding, facts) || (index === 0 && !rows.some((row) => about(finding, row.facts))));
        insert.run(hostId, sessionId, facts.takenAt, JSON.stringify({ ...facts, findings: own }));
      }
    })();
  }

  /** The session's own snapshot, or null when none was taken (older sessions): never another's. */
  forSession(sessionId: number): SessionHostFacts | null {
    const rows = this.#db.prepare('SELECT info FROM host_snapshot WHERE session_id = ? ORDER BY id').all(sessionId) as Array<{ info: string }>;
    const snapshot: SessionHostFacts = { client: null, clients: [], server: null, findings: [] };
    const seen = new Set<string>();
    for (const row of rows) {
      const parsed = SessionRow.safeParse(parseJsonColumn<unknown>(row.info, null));
      if (!parsed.success) continue;
      const { findings, ...facts } = parsed.data;
      if (facts.role === 'client') snapshot.clients.push(facts);
      else snapshot.server = facts;
      for (const finding of findings) {
        const key = JSON.stringify(finding);
        if (!seen.has(key)) snapshot.findings.push(finding);
        seen.add(key);
      }
    }
    snapshot.client = snapshot.clients[0] ?? null;
    return snapshot.client || snapshot.server ? snapshot : null;
  }
}
