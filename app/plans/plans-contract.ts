// The `plans.*` part of the contract: the wizard's side of the back end. The studies it starts
// from, starting a plan (presets, then each template deployed and loaded as its own session),
// cancelling it and reading the current one (the wizard's answers are a draft: drafts-contract.ts). Event:
// `plans.progress` on every change of the plan's stages.

import { NoArgs, request } from '../common/contract-kit.ts';
import { PlanSpec, PlanState } from './plan.ts';
import { EstimateHistory } from './plan-estimate.ts';
import { StudyCatalog } from './studies.ts';

export const planRequests = {
  'plans.studies': request(NoArgs, StudyCatalog),
  /** Starts at once and returns the plan with every stage pending; progress follows as events. */
  'plans.start': request(PlanSpec, PlanState),
  /** Stops the stage running now (a deploy is cancelled, a load stopped), then cleans up as planned. */
  'plans.cancel': request(NoArgs, PlanState),
  /** What recent deploys and sessions took, which the estimates learn from (plan-estimate.ts). */
  'plans.history': request(NoArgs, EstimateHistory),
  /** The plan running now, or the last one of this process. */
  'plans.current': request(NoArgs, PlanState.nullable()),
} as const;

export const planEvents = {
  'plans.progress': PlanState,
} as const;
