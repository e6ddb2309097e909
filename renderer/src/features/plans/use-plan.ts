// The plan running now (or the last one), kept current by `plans.progress` events.

import { useEffect, useState } from 'react';
import type { PlanState } from '../../../../app/plans/plan.ts';
import { useApi, useConnection } from '../../api-context.tsx';

export function usePlan(): [PlanState | null, (plan: PlanState) => void] {
  const api = useApi();
  const link = useConnection();
  const [plan, setPlan] = useState<PlanState | null>(null);

  useEffect(() => {
    if (link !== 'connected') return;
    const keepNewer = (next: PlanState | null) => setPlan((current) => (next && (!current || next.id >= current.id) ? next : current));
    const unsubscribe = api.subscribe('plans.progress', keepNewer);
    api.plans.current().then(keepNewer, () => undefined);
    return unsubscribe;
  }, [api, link]);

  return [plan, setPlan];
}
