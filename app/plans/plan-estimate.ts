// Estimates that learn: what past deploys and sessions took, as the store kept it (plans.history),
// turned into what the wizard's review and the plan runner estimate with (EstimateBasis). A deploy is
// estimated by the median of the same template and variant on the same server host, else on any
// host, else the guess; a session by its planned load plus the median of what sessions took beyond
// theirs. Medians, so one slow first build (a JVM's dependencies downloaded) does not rule forever.

import { z } from 'zod';
import { ESTIMATE_S, loadEstimate, type EstimateBasis } from './plan.ts';
import { LoadProfile } from '../runs/load-profile.ts';
import { medianOrNull } from '../common/median.ts';

/** How many recent measurements each estimate goes by. */
export const ESTIMATE_HISTORY_SIZE = 20;

export const EstimateHistory = z.object({
  /** Recent deploys that became ready, newest first: how long from the start to ready. */
  deploys: z.array(z.object({ hostId: z.number(), templateId: z.string(), variant: z.string(), seconds: z.number().nonnegative() })),
  /** Recent sessions that completed, newest first: the load they planned and how long they took. */
  sessions: z.array(z.object({ plannedS: z.number().nonnegative(), tookS: z.number().nonnegative() })),
});
export type EstimateHistory = z.infer<typeof EstimateHistory>;

export function learnedEstimates(history: EstimateHistory): EstimateBasis {
  const recent = <T>(entries: readonly T[]) => entries.slice(0, ESTIMATE_HISTORY_SIZE);
  const deployS = (hostId: number, templateId: string, variant: string) => {
    const same = history.deploys.filter((deploy) => deploy.templateId === templateId && deploy.variant === variant);
    const here = medianOrNull(recent(same.filter((deploy) => deploy.hostId === hostId)).map((deploy) => deploy.seconds));
    return Math.ceil(here ?? medianOrNull(recent(same).map((deploy) => deploy.seconds)) ?? ESTIMATE_S.deploy);
  };
  const overhead = medianOrNull(recent(history.sessions).map((session) => Math.max(0, session.tookS - session.plannedS)));
  return { deployS, loadOverheadS: Math.ceil(overhead ?? 0) };
}

/** A stored session's planned load in seconds, from its profile; null when unknown or ended by a count. */
export function plannedLoadSeconds(profile: unknown): number | null {
  const parsed = LoadProfile.safeParse(profile);
  if (!parsed.success) return null;
  const estimate = loadEstimate(parsed.data);
  return estimate.upTo ? null : estimate.seconds;
}
