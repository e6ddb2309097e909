// Opens comparisons and replays from the store, and edits the sessions library. Owns the rules
// around them: chosen runs must belong to the chosen sessions, a replay needs stored seconds, a
// duplicate is a draft named after its original.

import { calibrationLineOf } from '../../../app/runs/calibration-record.ts';
import type { CompareSelection } from '../../../app/sessions/sessions-contract.ts';
import { buildComparison, type Comparison } from '../../../app/sessions/comparison.ts';
import { ApiError } from '../../../app/common/errors.ts';
import { LoadProfile } from '../../../app/runs/load-profile.ts';
import { replayOf, type ReplayData } from '../../../app/sessions/replay.ts';
import type { LibraryEntry } from '../../../app/sessions/session-library.ts';
import type { Session } from '../../../app/sessions/sessions.ts';
import type { Db } from '../store/database.ts';
import type { SessionsRepository } from '../runs/sessions-repository.ts';
import { ComparisonReader } from './comparison-reader.ts';

export class ComparisonService {
  readonly #sessions: SessionsRepository;
  readonly #reader: ComparisonReader;

  constructor(options: { db: Db; sessions: SessionsRepository }) {
    this.#sessions = options.sessions;
    this.#reader = new ComparisonReader(options.db);
  }

  library(): LibraryEntry[] {
    return this.#sessions.library();
  }

  update(id: number, edit: { notes?: string; tags?: string[] }): Session {
    this.#sessions.updateNotesAndTags(id, edit);
    return this.#sessions.get(id);
  }

  duplicate(id: number): Session {
    const original = this.#sessions.get(id);
    const name = `${original.name} (copy)`.slice(0, 200);
    return this.#sessions.get(this.#sessions.duplicateAsDraft(id, name));
  }

  /** Links a session started by "Run again" to the one it repeats. */
  linkRerun(id: number, originId: number): void {
    this.#sessions.setOrigin(id, originId);
  }

  open(selection: CompareSelection): Comparison {
    const sessions = selection.sessionIds.map((id) => this.#sessions.get(id));
    const only = selection.runIds ? new Set(selection.runIds) : undefined;
    const inputs = sessions.map((session) => this.#reader.session(session, only));
    if (only) {
      const known = new Set(inputs.flatMap((input) => input.runs.map((run) => run.runId)));
      const stray = [...only].filter((id) => !known.has(id));
      if (stray.length > 0) throw new ApiError('invalid_args', `runIds: run ${stray[0]} is not a run of the chosen sessions`);
    }
    return buildComparison(inputs, selection.title);
  }

  replay(sessionId: number): ReplayData {
    const session = this.#sessions.get(sessionId);
    const profile = LoadProfile.safeParse(session.config.profile);
    if (!profile.success) throw new ApiError('invalid_args', `session ${sessionId} has no load profile to replay`);
    const replay = replayOf(session, profile.data, this.#reader.runs(session), calibrationLineOf(session.config));
    if (!replay) throw new ApiError('invalid_args', `“${session.name}” has no stored seconds to replay`);
    return replay;
  }
}
