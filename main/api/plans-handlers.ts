// The `plans.*` requests of the contract: studies, the plan runner, and the UI's drafts.

import type { planRequests } from '../../app/plans/plans-contract.ts';
import type { Services } from '../services/services.ts';
import { builtInStudiesDir, loadStudies } from '../services/plans/study-catalog.ts';
import type { HandlersFor } from './handler-kit.ts';

export function createPlanHandlers({ plans, wizardDraft, estimates }: Pick<Services, 'plans' | 'wizardDraft' | 'estimates'>): HandlersFor<typeof planRequests> {
  return {
    'plans.studies': () => loadStudies(builtInStudiesDir()),
    'plans.start': (spec) => plans.start(spec),
    'plans.cancel': () => plans.cancel(),
    'plans.current': () => plans.current(),
    'plans.history': () => estimates.history(),
    'plans.draft': ({ key }) => wizardDraft.load(key),
    'plans.saveDraft': ({ key, draft }) => wizardDraft.save(draft, key),
  };
}
