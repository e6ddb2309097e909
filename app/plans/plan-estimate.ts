// Estimates that learn: what past deploys and sessions took, as the store kept it (plans.history),
// turned into what the wizard's review and the plan runner estimate with (EstimateBasis). A deploy is
// estimated by the median of the same template and variant on the same server host, else on any
// host, else the guess; a session by its planned load plus the median of what sessions took beyond
// theirs; a step that ends by its request count by the median requests/s of past runs at the same
// URL (with the same connections where there are some), never by its cap. Medians, so one slow
// first build (a JVM's dependencies downloaded) does not rule forever.

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
  /** Recent completed runs, newest first: the URL they loaded (target and path), their connections and the requests/s they got. */
  rates: z.array(z.object({ url: z.string(), connections: z.number(), requestsPerSecond: z.number().positive() })).default([]),
});
export type EstimateHistory = z.infer<typeof EstimateHistory>;

export function learnedEstimates(history: z.input<typeof EstimateHistory>): EstimateBasis {
  const recent = <T>(entries: readonly T[]) => entries.slice(0, ESTIMATE_HISTORY_SIZE);
  const deployS = (hostId: number, templateId: string, variant: string) => {
    const same = history.deploys.filter((deploy) => deploy.templateId === templateId && deploy.variant === variant);
    const here = medianOrNull(recent(same.filter((deploy) => deploy.hostId === hostId)).map((deploy) => deploy.seconds));
    return Math.ceil(here ?? medianOrNull(recent(same).map((deploy) => deploy.seconds)) ?? ESTIMATE_S.deploy);
  };
  const overhead = medianOrNull(recent(history.sessions).map((session) => Math.max(0, session.tookS - session.plannedS)));
  const answersPerS = (url: string, connections: number) => {
    const same = (history.rates ?? []).filter((rate) => rate.url === url);
    const alike = recent(same.filter((rate) => rate.connections === connections)).map((rate) => rate.requestsPerSecond);
    return medianOrNull(alike) ?? medianOrNull(recent(same).map((rate) => rate.requestsPerSecond));
  };
  return { deployS, loadOverheadS: Math.ceil(overhead ?? 0), answersPerS };
}

/** A stored session's planned load in seconds, from its profile; null when unknown or ended by a count. */
export function plannedLoadSeconds(profile: unknown): number | null {
  const parsed = LoadProfile.safeParse(profile);
  if (!parsed.success) return null;
  const estimate = loadEstimate(parsed.data);
  return estimate.byCount ? null : estimate.seconds;
}

/** A stored run's URL, connections and requests/s for `rates`; null when its profile or summary does not say. */
export function runRate(profile: unknown, step: unknown, summary: unknown): EstimateHistory['rates'][number] | null {
  const parsed = LoadProfile.safeParse(profile);
  const load = (step as { load?: { model?: string; connections?: unknown } } | null)?.load;
  const rps = (summary as { requestsPerSecond?: unknown } | null)?.requestsPerSecond;
  if (!parsed.success || typeof rps !== 'number' || !(rps > 0)) return null;
  const connections = load?.model === 'closed' && typeof load.connections === 'number' ? load.connections : 0;
  return { url: `${parsed.data.target}${parsed.data.request.path}`, connections, requestsPerSecond: rps };
}
