// What a capacity calibration leaves behind in each session of its plan (its config's
// `calibration`): the reference server, when the ramp ran, the capacity it found, each ramp step as
// judged, and the steps' rates, with the words every screen (the Run page, replay, Compare, the CLI,
// the PDF) says it in. The rules that produce it are the plan's (app/plans/calibration.ts); the
// record lives with runs because a run is started with it and every reader of a session reads it.

import { z } from 'zod';
import { KnobValue } from '../templates/templates-contract.ts';

/** One ramp step judged: its rate, the share answered without error, its p99, and whether it sustained the rate. */
export const RampStep = z.object({ rate: z.number(), answeredShare: z.number(), p99Us: z.number().nullable(), sustained: z.boolean() }).strict();
export type RampStep = z.infer<typeof RampStep>;

/** The calibration as each session of the plan keeps it (its config's `calibration`). */
export const RecordedCalibration = z
  .object({
    /** The reference server's template, variant and knobs, and its name as shown ("Node.js · sync"). */
    reference: z.object({ templateId: z.string(), variant: z.string(), knobs: z.record(z.string(), KnobValue), label: z.string().max(200) }).strict(),
    /** When the ramp ended (ISO). */
    measuredAt: z.string(),
    /** The highest rate sustained, requests/s. */
    capacity: z.number(),
    /** No ramp step failed (all sustained, or the time limit cut the ramp): the capacity is at least this. */
    atLeast: z.boolean(),
    times: z.array(z.number()),
    /** The steps' rates the multiples gave, requests/s. */
    rates: z.array(z.number()),
    /** The probe's answers per second (closed model, PROBE's connections). */
    probeAnswersPerS: z.number(),
    ramp: z.array(RampStep),
    /** The probe's and the ramp's sessions. */
    sessionIds: z.array(z.number()),
  })
  .strict();
export type RecordedCalibration = z.infer<typeof RecordedCalibration>;

/** The calibration a session's config recorded; null for a session of fixed steps (or one recorded before). */
export function recordedCalibrationOf(config: Record<string, unknown>): RecordedCalibration | null {
  const parsed = RecordedCalibration.safeParse(config.calibration);
  return parsed.success ? parsed.data : null;
}

/** 1240 → "1,240": whole requests with grouped thousands. */
function formatCount(value: number): string {
  return Number.isFinite(value) ? String(Math.round(value)).replace(/\B(?=(\d{3})+(?!\d))/g, ',') : '?';
}

function rateText(rate: number): string {
  return `${formatCount(rate)} req/s`;
}

/** "16:40 UTC, 27 Nov 2026": when, without the reader's time zone guessing. */
function timeText(iso: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const two = (value: number) => String(value).padStart(2, '0');
  return `${two(at.getUTCHours())}:${two(at.getUTCMinutes())} UTC, ${at.getUTCDate()} ${months[at.getUTCMonth()]} ${at.getUTCFullYear()}`;
}

/** "×1.52 = 1,748 req/s, ×1.74 = 2,001 req/s": each multiple and the rate it gave. */
export function describeCapacityRates(calibration: Pick<RecordedCalibration, 'times' | 'rates'>): string {
  return calibration.times.map((multiple, index) => `×${multiple} = ${rateText(calibration.rates[index] ?? NaN)}`).join(', ');
}

/** "steps from a capacity of 1,240 req/s measured on Node.js · sync at 16:40 UTC, 27 Nov 2026: ×1.52 = 1,885 req/s, …". */
export function describeCalibration(calibration: RecordedCalibration): string {
  const capacity = `${calibration.atLeast ? 'at least ' : ''}${rateText(calibration.capacity)}`;
  return `steps from a capacity of ${capacity} measured on ${calibration.reference.label} at ${timeText(calibration.measuredAt)}: ${describeCapacityRates(calibration)}`;
}

/** A session's calibration in words (describeCalibration), or null for a session of fixed steps. */
export function calibrationLineOf(config: Record<string, unknown>): string | null {
  const calibration = recordedCalibrationOf(config);
  return calibration ? describeCalibration(calibration) : null;
}

/** The ramp in one line: "500 ✓, 600 ✓, 700 ✗ (p99 412 ms, 97.1 % answered)". */
export function describeRamp(ramp: readonly RampStep[]): string {
  return ramp
    .map((step) => {
      if (step.sustained) return `${formatCount(step.rate)} ✓`;
      const p99 = step.p99Us === null ? 'no p99' : `p99 ${Math.round(step.p99Us / 1000)} ms`;
      return `${formatCount(step.rate)} ✗ (${p99}, ${(step.answeredShare * 100).toFixed(1)} % answered)`;
    })
    .join(', ');
}
