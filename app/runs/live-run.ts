// The one builder of a live run (runs.ts's LiveRun) and of its steps, for a session that starts
// (main/services/runs/live-run-state.ts) and for one replayed from the store (app/sessions/replay.ts),
// so both dashboards read the same shape with the same defaults; and how a stored run's or session's
// status reads on the dashboard once it is over.

import type { LoadProfile } from './load-profile.ts';
import { latencyMeaning, type LiveClient, type LiveRun, type LiveStep } from './runs.ts';
import type { RecordedEngine } from './engine-choice.ts';

/** What a live run is made of; the rest follows from it (latency's meaning) or starts empty. */
export interface LiveRunFields {
  sessionId: number;
  name: string;
  status: LiveRun['status'];
  /** The first client's host (a replayed session's as stored). */
  clientHostId: number;
  clients: LiveClient[];
  serverHostId: number | null;
  profile: LoadProfile;
  steps: LiveStep[];
  message: string | null;
  startedAt: string;
  endedAt: string | null;
  engine: RecordedEngine | null;
  /** The calibration in words; undefined leaves the field out (fixed steps of a live run). */
  calibration?: string | null | undefined;
}

export function liveRunOf(fields: LiveRunFields): LiveRun {
  const { calibration, ...rest } = fields;
  return {
    ...rest,
    currentStep: null,
    latencyMeaning: latencyMeaning(fields.profile.load.model, fields.profile.request),
    silentSince: { client: null, server: null },
    ...(calibration === undefined ? {} : { calibration }),
  };
}

/** A step as the dashboard shows it: pending and empty unless `fields` say more (a replayed step says all). */
export function liveStepOf(step: { index: number; label: string; targetRate: number | null }, fields: Partial<LiveStep> = {}): LiveStep {
  return {
    index: step.index,
    label: step.label,
    runId: null,
    status: 'pending',
    startedAtS: null,
    endedAtS: null,
    summary: null,
    bottleneck: null,
    targetRate: step.targetRate,
    clientVerdicts: [],
    degraded: null,
    ...fields,
  };
}

const STORED_STEP_STATUS: Record<string, LiveStep['status']> = { completed: 'completed', failed: 'failed', pending: 'pending' };

/** A stored run's status on the dashboard: one still `running` in the store, or interrupted, reads as stopped there. */
export function liveStepStatusOf(stored: string): LiveStep['status'] {
  return STORED_STEP_STATUS[stored] ?? 'stopped';
}

/** A stored session's status once over: completed and failed as they are; any other end reads as cancelled. */
export function liveStatusOf(stored: string): LiveRun['status'] {
  return stored === 'completed' || stored === 'failed' ? stored : 'cancelled';
}
