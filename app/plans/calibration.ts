// Steps relative to a measured capacity: a plan may state its open-model steps as multiples of the
// highest rate a reference server sustains on these hosts (`capacity: {reference, times}` in a plan
// file), so a seed's overload (its servers run at 1.5–3.5× what they could answer) appears on any
// hardware. Owns the calibration's rules, all pure: the short closed-model probe that estimates the
// capacity, the rising open-model ramp around that estimate, what "sustains" means for one ramp
// step, the capacity that follows and the steps' rates. The record each session keeps, and its
// words, are app/runs/calibration-record.ts.

import { z } from 'zod';
import { KnobValue, TemplateId } from '../templates/templates-contract.ts';
import type { LoadProfile } from '../runs/load-profile.ts';
import type { RunSummary } from '../runs/run-summary-schema.ts';
import type { RampStep } from '../runs/calibration-record.ts';

/** The calibration's closed-model probe: this many connections for this long give the first estimate. */
export const PROBE = { connections: 64, durationS: 5 } as const;
/**
 * The ramp's rates as fractions of the probe's answers per second, lowest first; each step this long.
 * It starts at a quarter: the probe may catch the machine quiet and the ramp busy (a CI run's lowest
 * step at half the probe's rate went past the probe's p99 with the machine shared), and a ramp with
 * no step sustained gives no capacity at all.
 */
export const RAMP_FRACTIONS = [0.25, 0.5, 0.6, 0.7, 0.8, 0.9, 1, 1.1, 1.2, 1.35, 1.5] as const;
export const RAMP_STEP_S = 3;
/** A calibration request's timeout: an overloaded ramp step ends in seconds, not in the study's own minute. */
export const CALIBRATION_TIMEOUT_MS = 2000;
/** "Sustains": at least this share of the scheduled requests answered without error within the timeout… */
export const SUSTAINED_SHARE = 0.99;
/** …and p99 within this many times the ramp's lowest step's p99, or within the floor, whichever is higher. */
export const P99_GROWTH_LIMIT = 5;
export const P99_FLOOR_MS = 100;
export const DEFAULT_CALIBRATION_MAX_S = 60;

/** A plan's steps as multiples of a capacity measured first on a reference server. */
export const CapacitySteps = z
  .object({
    /** The reference server: deployed, probed and ramped before the plan's first template. */
    reference: z
      .object({ templateId: TemplateId, variant: z.string().min(1, 'is required').max(40, 'is too long'), knobs: z.record(z.string().max(40, 'is too long'), KnobValue).default({}) })
      .strict(),
    /** The steps, as multiples of the measured capacity (requests/s), in the order they run. */
    times: z
      .array(z.number({ error: 'must be a number' }).gt(0, 'must be greater than 0').max(100, 'must be at most 100'))
      .min(1, 'needs at least one multiple')
      .max(20, 'must have at most 20 steps'),
    /** The calibration (probe and ramp) ends by this long, with the highest rate sustained so far. */
    maxS: z.number({ error: 'must be a number' }).min(15, 'must be at least 15 s').max(600, 'must be at most 600 s').default(DEFAULT_CALIBRATION_MAX_S),
  })
  .strict();
export type CapacitySteps = z.output<typeof CapacitySteps>;
export type CapacityStepsInput = z.input<typeof CapacitySteps>;

/** Why a profile cannot take capacity steps (they are rates of the open model, replacing its sweep); null when it can. */
export function capacityProfileProblem(profile: Pick<LoadProfile, 'load' | 'sweep'>): { field: 'load' | 'sweep'; message: string } | null {
  if (profile.load.model !== 'open') return { field: 'load', message: 'capacity steps are rates: the load must be the open model' };
  if (profile.sweep.length > 0) return { field: 'sweep', message: 'leave the sweep empty: the capacity’s times give the steps' };
  return null;
}

/** The probe: the plan's request on the closed model, PROBE's connections and length, the calibration's timeout. */
export function probeProfile(profile: LoadProfile): LoadProfile {
  return {
    ...profile,
    request: { ...profile.request, timeoutMs: Math.min(profile.request.timeoutMs, CALIBRATION_TIMEOUT_MS) },
    load: { model: 'closed', connections: PROBE.connections, pipelining: 1, durationS: PROBE.durationS },
    sweep: [],
    warmupS: 0,
    pauseS: 0,
  };
}

/** The ramp's rates from the probe's answers per second: RAMP_FRACTIONS of it, whole and rising. */
export function rampRates(probeAnswersPerS: number): number[] {
  const rates = RAMP_FRACTIONS.map((fraction) => Math.max(1, Math.round(fraction * probeAnswersPerS)));
  return rates.filter((rate, index) => index === 0 || rate > rates[index - 1]!);
}

/** The ramp: the plan's request on the open model, one RAMP_STEP_S step per rate, no pause. */
export function rampProfile(profile: LoadProfile, rates: readonly number[]): LoadProfile {
  return {
    ...profile,
    request: { ...profile.request, timeoutMs: Math.min(profile.request.timeoutMs, CALIBRATION_TIMEOUT_MS) },
    load: { model: 'open', rate: rates[0]!, durationS: RAMP_STEP_S },
    sweep: [...rates],
    warmupS: 0,
    pauseS: 0,
  };
}

/**
 * Whether a ramp step sustained its rate: at least SUSTAINED_SHARE of its scheduled requests
 * answered without error within the timeout (not sent, timed out, refused or non-2xx all count
 * against it), and its p99 not exploding — within P99_GROWTH_LIMIT times the lowest step's p99, or
 * P99_FLOOR_MS, whichever is higher (past capacity the open model's queue grows every second, and
 * p99 with it). `lowestP99Us` is null for the lowest step itself, which has no step to grow from:
 * its p99 is held to the probe's (`probeP99Us`, the closed probe's at the server's full speed, which
 * a quarter of that rate should not pass) or the floor — a relation, since on a busy machine a lowest step
 * well within the server's speed can still pass a fixed bound.
 */
export function judgeRampStep(rate: number, summary: Pick<RunSummary, 'requests' | 'non2xx' | 'p99Us' | 'books'>, lowestP99Us: number | null, probeP99Us: number | null = null): RampStep {
  const scheduled = summary.books?.scheduled ?? 0;
  const answered = (summary.books?.answered ?? summary.requests) - summary.non2xx;
  const answeredShare = scheduled > 0 ? Math.max(0, answered) / scheduled : 0;
  const p99Us = summary.p99Us;
  const p99LimitUs = Math.max(P99_FLOOR_MS * 1000, lowestP99Us === null ? (probeP99Us ?? 0) : lowestP99Us * P99_GROWTH_LIMIT);
  const sustained = scheduled > 0 && answeredShare >= SUSTAINED_SHARE && p99Us !== null && p99Us <= p99LimitUs;
  return { rate, answeredShare, p99Us, sustained };
}

/**
 * The capacity from the ramp's steps in order: the highest rate sustained before the first step
 * that was not (the ramp stops there). Null when the lowest step already failed. `atLeast` when no
 * step failed (every step sustained, or the time limit cut the ramp): the server may carry more.
 */
export function capacityOf(steps: readonly RampStep[]): { capacity: number; atLeast: boolean } | null {
  let capacity: number | null = null;
  for (const step of steps) {
    if (!step.sustained) return capacity === null ? null : { capacity, atLeast: false };
    capacity = step.rate;
  }
  return capacity === null ? null : { capacity, atLeast: true };
}

/** The steps' rates: each multiple of the capacity, whole requests/s (at least 1). */
export function capacityStepRates(capacity: number, times: readonly number[]): number[] {
  return times.map((multiple) => Math.max(1, Math.round(capacity * multiple)));
}

/** The plan's profile with the steps' rates in place of its sweep. */
export function profileAtRates(profile: LoadProfile, rates: readonly number[]): LoadProfile {
  if (profile.load.model !== 'open') throw new Error('capacity steps need the open model');
  const { requests: _requests, ...load } = profile.load;
  return { ...profile, load: { ...load, rate: rates[0]! }, sweep: rates.length > 1 ? [...rates] : [] };
}

/** How the plan's load stage names its steps before the calibration has chosen them: "capacity ×1.52 / ×1.74 …". */
export function describeCapacityTimes(times: readonly number[]): string {
  return `capacity ${times.map((multiple) => `×${multiple}`).join(' / ')}`;
}
