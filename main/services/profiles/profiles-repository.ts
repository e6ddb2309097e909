// The stored profiles: one row per run (migration 9, `profile`), its status, the tool, the facts of
// the capture and the folded text, compressed (folded stacks repeat their prefixes: gzip keeps a
// 60 s profile small). The only SQL of the profiles capability.

import { gunzipSync, gzipSync } from 'node:zlib';
import type { Profile, ProfileEntry, ProfileFacts, ProfileRuntime, ProfileStatus, ProfileTool } from '../../../app/profiles/profiles.ts';
import type { Db } from '../store/database.ts';

/** What a run's capture ended with: a profile, or the reason there is none. */
export type ProfileOutcome =
  | { status: 'captured'; folded: string; facts: Omit<ProfileFacts, 'storedBytes' | 'capturedAt'> }
  | { status: 'missing' | 'off'; reason: string; tool: ProfileTool | null; runtime: ProfileRuntime | null };

interface EntryRow {
  run_id: number;
  session_id: number;
  ordinal: number;
  template_id: string;
  variant: string;
  status: ProfileStatus;
  reason: string | null;
  tool: ProfileTool | null;
  runtime: ProfileRuntime | null;
  samples: number | null;
}

interface ProfileRow {
  run_id: number;
  session_id: number;
  tool: ProfileTool;
  runtime: ProfileRuntime;
  samples: number;
  stacks: number;
  interval_us: number | null;
  duration_ms: number;
  pid: number | null;
  stored_bytes: number;
  captured_at: string;
  folded: Buffer;
}

export class ProfilesRepository {
  readonly #db: Db;
  constructor(db: Db) {
    this.#db = db;
  }

  /** Records a run's outcome (a second record for the same run replaces the first). */
  save(runId: number, outcome: ProfileOutcome, now = new Date()): void {
    const capturedAt = now.toISOString();
    if (outcome.status === 'captured') {
      const folded = gzipSync(Buffer.from(outcome.folded, 'utf8'));
      const { tool, runtime, samples, stacks, intervalUs, durationMs, pid } = outcome.facts;
      this.#db
        .prepare(
          `INSERT OR REPLACE INTO profile (run_id, status, reason, tool, runtime, samples, stacks, interval_us, duration_ms, pid, stored_bytes, folded, captured_at)
           VALUES (?, 'captured', NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(runId, tool, runtime, samples, stacks, intervalUs, durationMs, pid, folded.length, folded, capturedAt);
      return;
    }
    this.#db
      .prepare(`INSERT OR REPLACE INTO profile (run_id, status, reason, tool, runtime, captured_at) VALUES (?, ?, ?, ?, ?, ?)`)
      .run(runId, outcome.status, outcome.reason, outcome.tool, outcome.runtime, capturedAt);
  }

  /** The entries of a session's runs, in run order. */
  list(sessionId: number): ProfileEntry[] {
    const rows = this.#db
      .prepare(
        `SELECT p.run_id, r.session_id, r.ordinal, r.template_id, r.variant, p.status, p.reason, p.tool, p.runtime, p.samples
         FROM profile p JOIN run r ON r.id = p.run_id WHERE r.session_id = ? ORDER BY r.ordinal`,
      )
      .all(sessionId) as unknown as EntryRow[];
    return rows.map((row) => ({
      runId: row.run_id,
      sessionId: row.session_id,
      ordinal: row.ordinal,
      templateId: row.template_id,
      variant: row.variant,
      status: row.status,
      reason: row.reason,
      tool: row.tool,
      runtime: row.runtime,
      samples: row.status === 'captured' ? row.samples : null,
    }));
  }

  /** A run's captured profile, or null when it has none captured. */
  get(runId: number): Profile | null {
    const row = this.#db
      .prepare(
        `SELECT p.run_id, r.session_id, p.tool, p.runtime, p.samples, p.stacks, p.interval_us, p.duration_ms, p.pid, p.stored_bytes, p.captured_at, p.folded
         FROM profile p JOIN run r ON r.id = p.run_id WHERE p.run_id = ? AND p.status = 'captured'`,
      )
      .get(runId) as unknown as ProfileRow | undefined;
    if (!row) return null;
    return {
      runId: row.run_id,
      sessionId: row.session_id,
      folded: gunzipSync(row.folded).toString('utf8'),
      facts: {
        tool: row.tool,
        runtime: row.runtime,
        samples: row.samples,
        stacks: row.stacks,
        intervalUs: row.interval_us,
        durationMs: row.duration_ms,
        pid: row.pid,
        storedBytes: row.stored_bytes,
        capturedAt: row.captured_at,
      },
    };
  }
}
