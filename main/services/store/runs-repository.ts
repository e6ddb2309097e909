// Runs of a session: one load step each (template, variant, knobs, profile step), with its status.

import type { Db } from './database.ts';

export interface NewRun {
  sessionId: number;
  ordinal: number;
  templateId: string;
  variant: string;
  knobs?: Record<string, unknown>;
  step?: Record<string, unknown>;
}

export class RunsRepository {
  readonly #db: Db;
  constructor(db: Db) {
    this.#db = db;
  }

  create(run: NewRun): number {
    const result = this.#db
      .prepare('INSERT INTO run (session_id, ordinal, template_id, variant, knobs, step) VALUES (?, ?, ?, ?, ?, ?)')
      .run(run.sessionId, run.ordinal, run.templateId, run.variant, JSON.stringify(run.knobs ?? {}), JSON.stringify(run.step ?? {}));
    return Number(result.lastInsertRowid);
  }
}
