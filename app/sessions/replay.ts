// Replay of a saved session: its stored seconds turned back into the live dashboard's points and
// state (so the very same dashboard plays them), and the replay clock — pause, seek, 1×/5×/20× —
// as pure functions of wall time, so the page only keeps a position and asks what to show.

import { z } from 'zod';
import { LivePoint, LiveRun } from '../runs/runs.ts';

export const ReplayData = z.object({
  run: LiveRun,
  points: z.array(LivePoint),
  /** Seconds of session time the replay spans (the last point's t + 1). */
  durationS: z.number(),
});
export type ReplayData = z.infer<typeof ReplayData>;

export const REPLAY_SPEEDS = [1, 5, 20] as const;
export type ReplaySpeed = (typeof REPLAY_SPEEDS)[number];

/** A stored second as main/ reads it back: counters, quick percentiles and flat metric maps. */
export interface StoredSecond {
  second: number;
  requests: number;
  errors: Record<string, number>;
  p50Us: number | null;
  p90Us: number | null;
  p99Us: number | null;
  clientMetrics: Record<string, number> | null;
  serverMetrics: Record<string, number> | null;
}

/** One stored second as the point the live stream would have sent for it. */
export function pointFromStored(sample: StoredSecond, context: { sessionId: number; step: number; offsetS: number; startedAtMs: number }): LivePoint {
  const client = sample.clientMetrics ?? {};
  const server = sample.serverMetrics;
  const durationMs = client.durationMs && client.durationMs > 0 ? client.durationMs : 1000;
  const errors = Object.values(sample.errors).reduce((sum, count) => sum + count, 0);
  const t = context.offsetS + sample.second;
  return {
    sessionId: context.sessionId,
    step: context.step,
    t,
    at: client.at ?? context.startedAtMs + (t + 1) * 1000,
    warmup: false,
    rps: (sample.requests * 1000) / durationMs,
    errorsPerS: (errors * 1000) / durationMs,
    p50Us: sample.p50Us,
    p90Us: sample.p90Us,
    p99Us: sample.p99Us,
    clientCpu: client.cpu ?? 0,
    eventLoopLagMs: client.eventLoopLagMs ?? 0,
    serverCpu: server?.cpu ?? null,
    serverRssBytes: server?.processRssBytes ?? null,
    serverMemUsedBytes: server?.memUsedBytes ?? null,
    rxBytesPerS: server?.rxBytesPerS ?? null,
    txBytesPerS: server?.txBytesPerS ?? null,
  };
}

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

/** How many points (sorted by t) a dashboard at `positionS` shows: those whose second has passed. */
export function visibleCount(points: readonly LivePoint[], positionS: number): number {
  let low = 0;
  let high = points.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (points[mid]!.t + 1 <= positionS) low = mid + 1;
    else high = mid;
  }
  return low;
}
