// Opens comparisons and replays from the store, and edits the sessions library. Owns the rules
// around them: chosen runs must belong to the chosen sessions, a replay needs stored seconds, a
// duplicate is a draft named after its original.

import { calibrationLineOf } from '../../../app/plans/calibration.ts';
import type { CompareSelection } from '../../../app/sessions/sessions-contract.ts';
import { buildComparison, type Comparison } from '../../../app/sessions/comparison.ts';
import { storedTargetRate } from '../../../app/runs/bottleneck.ts';
import { ApiError } from '../../../app/common/errors.ts';
import { LoadProfile } from '../../../app/runs/load-profile.ts';
import { chartPoint } from '../../../app/runs/chart-point.ts';
import { mergedWithParts } from '../../../app/runs/merge-seconds.ts';
import { recordedEngineOf } from '../../../app/runs/engine-choice.ts';
import { liveClientsOfConfig, storedDegradedOf } from '../../../app/runs/run-clients.ts';
import type { ReplayData } from '../../../app/sessions/replay.ts';
import { latencyMeaning, type LivePoint, type LiveRun, type LiveStep } from '../../../app/runs/runs.ts';
import type { LibraryEntry } from '../../../app/sessions/session-library.ts';
import type { Session } from '../../../app/sessions/sessions.ts';
import type { Db } from '../store/database.ts';
import type { SessionsRepository } from './sessions-repository.ts';
import { ComparisonReader } from './comparison-reader.ts';

const LIVE_STATUS = { completed: 'completed', failed: 'failed' } as const;
const STEP_STATUS: Record<string, LiveStep['status']> = { completed: 'completed', failed: 'failed', running: 'stopped', stopped: 'stopped', interrupted: 'stopped', pending: 'pending' };

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
    const runs = this.#reader.runs(session);
    const startedAtMs = Date.parse(session.startedAt ?? runs[0]?.startedAt ?? session.createdAt);
    const points: LivePoint[] = [];
    const steps: LiveStep[] = [];
    let cursor = 0;
    for (const run of runs) {
      const started = Date.parse(run.startedAt ?? '');
      // Where the step started, to the tenth of a second as the live dashboard marks it.
      const offsetS = Number.isFinite(started) ? Math.max(cursor, Math.round((started - startedAtMs) / 100) / 10) : cursor;
      const step = run.ordinal - 1;
      // The points drawn live, from the same stored seconds by the same function: several clients merged, with each one's part.
      // The drain after the window too: the late answers the table counts, drawn at its end as live.
      const merged = mergedWithParts([...run.measured, ...run.drain], { histogram: false });
      for (const { merged: second, parts } of merged) points.push(chartPoint(second, { sessionId, step, startedAtMs, stepOffsetS: offsetS }, parts));
      const window = merged.filter(({ merged: second }) => second.phase === 'measure');
      const endS = offsetS + (window.at(-1)?.merged.second ?? -1) + 1;
      steps.push({
        index: step,
        label: run.stepLabel,
        runId: run.runId,
        status: STEP_STATUS[run.status] ?? 'stopped',
        startedAtS: offsetS,
        endedAtS: endS,
        summary: run.summary,
        bottleneck: run.bottleneck ?? null,
        targetRate: storedTargetRate(run.step),
        clientVerdicts: run.clientVerdicts,
        degraded: storedDegradedOf(run.step),
      });
      cursor = endS;
    }
    if (points.length === 0) throw new ApiError('invalid_args', `“${session.name}” has no stored seconds to replay`);
    const run: LiveRun = {
      sessionId,
      name: session.name,
      status: LIVE_STATUS[session.status as keyof typeof LIVE_STATUS] ?? 'cancelled',
      clientHostId: session.clientHostId ?? 0,
      clients: liveClientsOfConfig(session.config, session.clientHostId),
      serverHostId: session.serverHostId,
      profile: profile.data,
      steps,
      currentStep: null,
      latencyMeaning: latencyMeaning(profile.data.load.model, profile.data.request),
      message: null,
      startedAt: session.startedAt ?? session.createdAt,
      endedAt: session.endedAt,
      silentSince: { client: null, server: null },
      engine: recordedEngineOf(session.config),
      calibration: calibrationLineOf(session.config),
    };
    return { run, points, durationS: points.at(-1)!.t };
  }
}
