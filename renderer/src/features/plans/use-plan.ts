// The plan running now (or the last one), kept current by `plans.progress` events.

import type { PlanState } from '../../../../app/plans/plan.ts';
import { useLoaded } from '../../common/use-loaded.ts';

/** A newer plan (a higher id) replaces the one shown; progress of an older one is dropped. */
const keepNewer = (current: PlanState | null, next: PlanState | null) => (next && (!current || next.id >= current.id) ? next : current);

export function usePlan(): [PlanState | null, (plan: PlanState) => void] {
  const { value, setValue } = useLoaded((api) => api.plans.current(), { event: 'plans.progress', apply: keepNewer, merge: keepNewer });
  return [value, setValue];
}
