// Replay of a saved session: its stored seconds turned back into the live dashboard's points (by
// app/runs/chart-point.ts, as they were drawn live) and state, so the very same dashboard plays
// them; and the replay clock — pause, seek, 1×/5×/20× — as pure functions of wall time, so the
// page only keeps a position and asks what to show.

import { z } from 'zod';
import { LivePoint, LiveRun } from '../runs/runs.ts';

export const ReplayData = z.object({
  run: LiveRun,
  points: z.array(LivePoint),
  /** Seconds of session time the replay spans (the last point's t: the end of its second). */
  durationS: z.number(),
});
export type ReplayData = z.infer<typeof ReplayData>;

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
