// Replay of a saved session: its stored seconds turned back into the live dashboard's points (by
// app/runs/chart-point.ts, as they were drawn live) and its live run (by app/runs/live-run.ts, the
// builder a starting session uses), so the very same dashboard plays them; and the replay clock — pause, seek, 1×/5×/20× — as pure functions of wall time, so the
// page only keeps a position and asks what to show.

import { z } from 'zod';
import { storedTargetRate, type Bottleneck } from '../runs/bottleneck.ts';
import { chartPoint } from '../runs/chart-point.ts';
import { liveRunOf, liveStatusOf, liveStepOf, liveStepStatusOf } from '../runs/live-run.ts';
import type { LoadProfile } from '../runs/load-profile.ts';
import { mergedWithParts } from '../runs/merge-seconds.ts';
import { recordedEngineOf } from '../runs/engine-choice.ts';
import { liveClientsOfConfig, storedDegradedOf } from '../runs/run-clients.ts';
import type { RunSecond } from '../runs/run-second.ts';
import type { RunSummary } from '../runs/run-summary.ts';
import { LivePoint, LiveRun, type ClientVerdict, type LiveStep } from '../runs/runs.ts';
import type { Session } from './sessions.ts';

export const ReplayData = z.object({
  run: LiveRun,
  points: z.array(LivePoint),
  /** Seconds of session time the replay spans (the last point's t: the end of its second). */
  durationS: z.number(),
});
export type ReplayData = z.infer<typeof ReplayData>;

/** One stored run of the session, as the store reads it back. */
export interface ReplayRun {
  runId: number;
  ordinal: number;
  stepLabel: string;
  status: string;
  startedAt: string | null;
  summary: RunSummary | null;
  bottleneck?: Bottleneck | null | undefined;
  /** The step as stored with the run. */
  step: Record<string, unknown>;
  clientVerdicts: ClientVerdict[];
  /** The measured window's seconds, per client. */
  measured: RunSecond[];
  /** The answers after the window. */
  drain: RunSecond[];
}

/**
 * A stored session as the live dashboard drew it: its points and its live run, each step placed
 * where it started (to the tenth of a second, as the live dashboard marks it). Null when no second
 * was stored.
 */
export function replayOf(session: Session, profile: LoadProfile, runs: readonly ReplayRun[], calibration: string | null): ReplayData | null {
  const sessionId = session.id;
  const startedAtMs = Date.parse(session.startedAt ?? runs[0]?.startedAt ?? session.createdAt);
  const points: LivePoint[] = [];
  const steps: LiveStep[] = [];
  let cursor = 0;
  for (const run of runs) {
    const started = Date.parse(run.startedAt ?? '');
    const offsetS = Number.isFinite(started) ? Math.max(cursor, Math.round((started - startedAtMs) / 100) / 10) : cursor;
    const step = run.ordinal - 1;
    // The points drawn live, from the same stored seconds by the same function: several clients merged, with each one's part.
    // The drain after the window too: the late answers the table counts, drawn at its end as live.
    const merged = mergedWithParts([...run.measured, ...run.drain], { histogram: false });
    for (const { merged: second, parts } of merged) points.push(chartPoint(second, { sessionId, step, startedAtMs, stepOffsetS: offsetS }, parts));
    const window = merged.filter(({ merged: second }) => second.phase === 'measure');
    const endS = offsetS + (window.at(-1)?.merged.second ?? -1) + 1;
    steps.push(
      liveStepOf(
        { index: step, label: run.stepLabel, targetRate: storedTargetRate(run.step) },
        { runId: run.runId, status: liveStepStatusOf(run.status), startedAtS: offsetS, endedAtS: endS, summary: run.summary, bottleneck: run.bottleneck ?? null, clientVerdicts: run.clientVerdicts, degraded: storedDegradedOf(run.step) },
      ),
    );
    cursor = endS;
  }
  if (points.length === 0) return null;
  const run = liveRunOf({
    sessionId,
    name: session.name,
    status: liveStatusOf(session.status),
    clientHostId: session.clientHostId ?? 0,
    clients: liveClientsOfConfig(session.config, session.clientHostId),
    serverHostId: session.serverHostId,
    profile,
    steps,
    message: null,
    startedAt: session.startedAt ?? session.createdAt,
    endedAt: session.endedAt,
    engine: recordedEngineOf(session.config),
    calibration,
  });
  return { run, points, durationS: points.at(-1)!.t };
}

export const REPLAY_SPEEDS = [1, 5, 20] as const;
export type ReplaySpeed = (typeof REPLAY_SPEEDS)[number];

/** The replay clock: where it stands (session seconds) and since when it moves at what speed. */
export interface ReplayClock {
  positionS: number;
  speed: ReplaySpeed;
  /** Wall time (ms) the clock last started moving; null while paused. */
  playingSinceMs: number | null;
}

export function startClock(speed: ReplaySpeed = 1): ReplayClock {
  return { positionS: 0, speed, playingSinceMs: null };
}

/** Session seconds shown at wall time `nowMs`, never past the end. */
export function positionAt(clock: ReplayClock, nowMs: number, durationS: number): number {
  const moved = clock.playingSinceMs === null ? 0 : ((nowMs - clock.playingSinceMs) / 1000) * clock.speed;
  return Math.min(durationS, Math.max(0, clock.positionS + moved));
}

export function play(clock: ReplayClock, nowMs: number, durationS: number): ReplayClock {
  if (clock.playingSinceMs !== null) return clock;
  // Play at the end starts over, as a media player does.
  const positionS = clock.positionS >= durationS ? 0 : clock.positionS;
  return { ...clock, positionS, playingSinceMs: nowMs };
}

export function pause(clock: ReplayClock, nowMs: number, durationS: number): ReplayClock {
  return { ...clock, positionS: positionAt(clock, nowMs, durationS), playingSinceMs: null };
}

export function seek(clock: ReplayClock, toS: number, nowMs: number, durationS: number): ReplayClock {
  const positionS = Math.min(durationS, Math.max(0, toS));
  return { ...clock, positionS, playingSinceMs: clock.playingSinceMs === null ? null : nowMs };
}

export function setSpeed(clock: ReplayClock, speed: ReplaySpeed, nowMs: number, durationS: number): ReplayClock {
  const positionS = positionAt(clock, nowMs, durationS);
  return { positionS, speed, playingSinceMs: clock.playingSinceMs === null ? null : nowMs };
}

/**
 * How many points (sorted by t) a dashboard at `positionS` shows: those whose second has passed.
 * A point's t is the end of its second, when the live dashboard received it.
 */
export function visibleCount(points: readonly LivePoint[], positionS: number): number {
  let low = 0;
  let high = points.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (points[mid]!.t <= positionS) low = mid + 1;
    else high = mid;
  }
  return low;
}
