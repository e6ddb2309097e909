// The journal of preset changes on hosts (`change` rows): written before the host is touched, so
// that after a crash the next start knows which hosts carry changes and how to put them back.
// pending → applied by a finished apply (with its keys as verified); pending or applied → reverted by a revert; pending →
// failed only when the apply stopped before it changed anything on the host. A change a running plan
// will revert itself names that plan and its process (held_by, owner) until the plan ends.

import type { PresetKeyEffect } from '../../../app/hosts/host-facts.ts';
import { RestoreRecord } from '../../../app/presets/preset-plan.ts';
import type { Db } from '../store/database.ts';
import { readJsonColumn } from '../store/json-column.ts';

export interface AppliedValues {
  presetName: string;
  sysctls: Record<string, string>;
  /** New content of each file, null where the file is removed. */
  files: Record<string, string | null>;
  /** Each key as verified after the apply: asked, in effect, taken or not (absent in rows from before they were kept). */
  effects?: PresetKeyEffect[];
  /** The interface shaped and the tc command that did it (absent: the network was left alone). */
  network?: { interface: string; command: string | null };
}

export interface ChangeEntry {
  id: number;
  hostId: number;
  presetId: string;
  keys: string[];
  /** What the host held before, each file with its mode, owner and group (none in rows from before Benchlab kept them). */
  previous: RestoreRecord;
  applied: AppliedValues;
  status: 'pending' | 'applied' | 'reverted' | 'failed';
  appliedAt: string | null;
  revertedAt: string | null;
  /** The running plan that will revert it (`plan "Overnight"`), with its process's owner token; null otherwise. */
  heldBy: { what: string; owner: string } | null;
}

interface ChangeRow {
  id: number;
  host_id: number;
  preset_id: string;
  keys: string;
  previous: string;
  applied: string;
  status: ChangeEntry['status'];
  applied_at: string | null;
  reverted_at: string | null;
  held_by: string | null;
  owner: string | null;
}

function toEntry(row: ChangeRow): ChangeEntry {
  return {
    id: row.id,
    hostId: row.host_id,
    presetId: row.preset_id,
    keys: readJsonColumn(row.keys, 'change keys') as string[],
    previous: RestoreRecord.parse(readJsonColumn(row.previous, 'restore record')),
    applied: readJsonColumn(row.applied, 'applied values') as AppliedValues,
    status: row.status,
    appliedAt: row.applied_at,
    revertedAt: row.reverted_at,
    heldBy: row.held_by !== null && row.owner !== null ? { what: row.held_by, owner: row.owner } : null,
  };
}

export class ChangesRepository {
  readonly #db: Db;
  constructor(db: Db) {
    this.#db = db;
  }

  /** Records an apply about to start; `applied_at` holds its start until it finishes. */
  begin(
    entry: { hostId: number; presetId: string; keys: string[]; previous: RestoreRecord; applied: AppliedValues; heldBy?: { what: string; owner: string } | null },
    now = new Date(),
  ): number {
    const result = this.#db
      .prepare("INSERT INTO change (host_id, preset_id, keys, previous, applied, status, applied_at, held_by, owner) VALUES (?, ?, ?, ?, ?, 'pending', ?, ?, ?)")
      .run(
        entry.hostId,
        entry.presetId,
        JSON.stringify(entry.keys),
        JSON.stringify(entry.previous),
        JSON.stringify(entry.applied),
        now.toISOString(),
        entry.heldBy?.what ?? null,
        entry.heldBy?.owner ?? null,
      );
    return Number(result.lastInsertRowid);
  }

  /** The apply finished; `effects` are its keys as verified, which a session's snapshot records. */
  markApplied(id: number, effects: readonly PresetKeyEffect[] = [], now = new Date()): void {
    this.#db.prepare("UPDATE change SET status = 'applied', applied_at = ? WHERE id = ? AND status = 'pending'").run(now.toISOString(), id);
    this.setEffects(id, effects);
  }

  /** What a later verification found for a row's keys (an apply that had no changes to make verifies again). */
  setEffects(id: number, effects: readonly PresetKeyEffect[]): void {
    this.#db.prepare("UPDATE change SET applied = json_set(applied, '$.effects', json(?)) WHERE id = ?").run(JSON.stringify(effects), id);
  }

  /** The apply stopped before changing the host: nothing to revert for this row. */
  markFailed(id: number): void {
    this.#db.prepare("UPDATE change SET status = 'failed' WHERE id = ? AND status = 'pending'").run(id);
  }

  /** Changes on a host not reverted yet, oldest first. */
  unreverted(hostId: number): ChangeEntry[] {
    const rows = this.#db
      .prepare("SELECT * FROM change WHERE host_id = ? AND status IN ('pending', 'applied') ORDER BY id")
      .all(hostId) as ChangeRow[];
    return rows.map(toEntry);
  }

  /** Hosts with unreverted changes. */
  hostsWithChanges(): number[] {
    const rows = this.#db.prepare("SELECT DISTINCT host_id FROM change WHERE status IN ('pending', 'applied') ORDER BY host_id").all() as Array<{ host_id: number }>;
    return rows.map((row) => row.host_id);
  }

  /** The plan that held a host's changes ended: what it left unreverted is a pending revert like any other. */
  release(hostId: number, owner: string): void {
    this.#db.prepare("UPDATE change SET held_by = NULL, owner = NULL WHERE host_id = ? AND owner = ? AND status IN ('pending', 'applied')").run(hostId, owner);
  }

  markReverted(hostId: number, now = new Date()): number {
    return this.#db
      .prepare("UPDATE change SET status = 'reverted', reverted_at = ? WHERE host_id = ? AND status IN ('pending', 'applied')")
      .run(now.toISOString(), hostId).changes;
  }
}
