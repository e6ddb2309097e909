// The `plans.*` requests of the contract: studies, the plan runner and its estimates.

import type { planRequests } from '../../app/plans/plans-contract.ts';
import type { Services } from '../services/services.ts';
import { builtInStudiesDir, loadStudies } from '../services/plans/study-catalog.ts';
import type { HandlersFor } from './handler-kit.ts';

export function createPlanHandlers({ plans, estimates }: Pick<Services, 'plans' | 'estimates'>): HandlersFor<typeof planRequests> {
  return {
    'plans.studies': () => loadStudies(builtInStudiesDir()),
    'plans.start': (spec) => plans.start(spec),
    'plans.cancel': () => plans.cancel(),
    'plans.current': () => plans.current(),
    'plans.history': () => estimates.history(),
  };
}
