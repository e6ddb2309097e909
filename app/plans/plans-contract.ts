// The `plans.*` part of the contract: the wizard's side of the back end. The studies it starts
// from, starting a plan (presets, then each template deployed and loaded as its own session),
// cancelling it, reading the current one, and the UI's drafts kept across reloads (the wizard's
// answers, the Run page's form). Event:
// `plans.progress` on every change of the plan's stages.

import { z } from 'zod';
import { NoArgs, request } from '../common/contract-kit.ts';
import { PlanSpec, PlanState } from './plan.ts';
import { EstimateHistory } from './plan-estimate.ts';
import { StudyCatalog } from './studies.ts';

/** The wizard's draft is the UI's own shape: any JSON object up to this size. */
export const MAX_DRAFT_BYTES = 256 * 1024;

/** Which form a draft belongs to. */
export const DraftKey = z.enum(['wizard', 'run']);
export type DraftKey = z.infer<typeof DraftKey>;

const Draft = z
  .record(z.string(), z.unknown())
  .refine((value) => JSON.stringify(value).length <= MAX_DRAFT_BYTES, `must be at most ${MAX_DRAFT_BYTES / 1024} KiB as JSON`);

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
  /** A form's draft (the wizard's when no key is given). */
  'plans.draft': request(z.object({ key: DraftKey.optional() }).strict(), z.object({ draft: Draft.nullable(), savedAt: z.string().nullable() })),
  'plans.saveDraft': request(z.object({ key: DraftKey.optional(), draft: Draft.nullable() }).strict(), z.object({ savedAt: z.string().nullable() })),
} as const;

export const planEvents = {
  'plans.progress': PlanState,
} as const;
