// What the estimates learn from, as stored: how long deploys took to become ready (the deploy_timing
// table, migration 6), when recent completed sessions started and ended with the profile they ran,
// and what recent completed runs got (their step and summary). All of its SQL;
// app/plans/plan-estimate.ts does the learning.

import type { Db } from '../store/database.ts';
import { parseJsonColumn } from '../store/json-column.ts';

export interface DeployTiming {
  hostId: number;
  templateId: string;
  variant: string;
  readyMs: number;
}

export interface SessionTiming {
  startedAt: string;
  endedAt: string;
  /** The session's recorded load profile (config.profile), unchecked. */
  profile: unknown;
}

export class EstimatesRepository {
  readonly #db: Db;
  constructor(db: Db) {
    this.#db = db;
  }

  recordDeploy(timing: DeployTiming, at = new Date()): void {
    this.#db
      .prepare('INSERT INTO deploy_timing (host_id, template_id, variant, ready_ms, at) VALUES (?, ?, ?, ?, ?)')
      .run(timing.hostId, timing.templateId, timing.variant, Math.round(timing.readyMs), at.toISOString());
  }

  /** Newest first, at most `perTemplate` of each template and variant. */
  recentDeploys(perTemplate: number): DeployTiming[] {
    const rows = this.#db
      .prepare(
        `SELECT host_id, template_id, variant, ready_ms FROM (
           SELECT *, ROW_NUMBER() OVER (PARTITION BY template_id, variant ORDER BY id DESC) AS position FROM deploy_timing
         ) WHERE position <= ? ORDER BY id DESC`,
      )
      .all(perTemplate) as Array<{ host_id: number; template_id: string; variant: string; ready_ms: number }>;
    return rows.map((row) => ({ hostId: row.host_id, templateId: row.template_id, variant: row.variant, readyMs: row.ready_ms }));
  }

  /** The last `limit` sessions that completed, newest first. */
  recentCompletedSessions(limit: number): SessionTiming[] {
    const rows = this.#db
      .prepare(
        `SELECT started_at, ended_at, config FROM session
         WHERE status = 'completed' AND started_at IS NOT NULL AND ended_at IS NOT NULL
         ORDER BY id DESC LIMIT ?`,
      )
      .all(limit) as Array<{ started_at: string; ended_at: string; config: string }>;
    return rows.map((row) => ({ startedAt: row.started_at, endedAt: row.ended_at, profile: parseJsonColumn<{ profile?: unknown }>(row.config, {}).profile ?? null }));
  }

  /** The last `limit` runs that completed, newest first: their session's profile, their step and summary (unchecked). */
  recentCompletedRuns(limit: number): Array<{ profile: unknown; step: unknown; summary: unknown }> {
    const rows = this.#db
      .prepare(
        `SELECT r.step, r.summary, s.config FROM run r JOIN session s ON s.id = r.session_id
         WHERE r.status = 'completed' AND r.summary IS NOT NULL ORDER BY r.id DESC LIMIT ?`,
      )
      .all(limit) as Array<{ step: string; summary: string; config: string }>;
    return rows.map((row) => ({
      profile: parseJsonColumn<{ profile?: unknown }>(row.config, {}).profile ?? null,
      step: parseJsonColumn<unknown>(row.step, null),
      summary: parseJsonColumn<unknown>(row.summary, null),
    }));
  }
}
