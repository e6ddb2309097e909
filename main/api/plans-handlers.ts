// The `plans.*` requests of the contract: studies, the plan runner, and the wizard's draft.

import type { Services } from '../services/services.ts';
import { builtInStudiesDir, loadStudies } from '../services/plans/study-catalog.ts';
import type { Handlers } from './handlers.ts';

const WIZARD_DRAFT_KEY = 'wizard';

export type PlanHandlers = Pick<Handlers, 'plans.studies' | 'plans.start' | 'plans.cancel' | 'plans.current' | 'plans.draft' | 'plans.saveDraft'>;

export function createPlanHandlers(services: Pick<Services, 'plans' | 'drafts'>): PlanHandlers {
  return {
    'plans.studies': () => loadStudies(builtInStudiesDir()),
    'plans.start': (spec) => services.plans.start(spec),
    'plans.cancel': () => services.plans.cancel(),
    'plans.current': () => services.plans.current(),
    'plans.draft': () => {
      const saved = services.drafts.get(WIZARD_DRAFT_KEY);
      const draft = saved && typeof saved.value === 'object' && saved.value !== null && !Array.isArray(saved.value) ? (saved.value as Record<string, unknown>) : null;
      return { draft, savedAt: draft ? saved!.updatedAt : null };
    },
    'plans.saveDraft': ({ draft }) => {
      if (draft === null) {
        services.drafts.clear(WIZARD_DRAFT_KEY);
        return { savedAt: null };
      }
      return { savedAt: services.drafts.save(WIZARD_DRAFT_KEY, draft) };
    },
  };
}
