// The `drafts.*` part of the contract: a form's work in progress, kept by the back end across
// reloads, restarts and visits to other pages, one JSON object per form (the wizard's answers, the
// Run page's form). The form owns its draft's shape; the back end only keeps it.

import { z } from 'zod';
import { request } from '../common/contract-kit.ts';

/** A draft is the form's own shape: any JSON object up to this size. */
export const MAX_DRAFT_BYTES = 256 * 1024;

/** Which form a draft belongs to. */
export const DraftKey = z.enum(['wizard', 'run']);
export type DraftKey = z.infer<typeof DraftKey>;

export const Draft = z
  .record(z.string(), z.unknown())
  .refine((value) => JSON.stringify(value).length <= MAX_DRAFT_BYTES, `must be at most ${MAX_DRAFT_BYTES / 1024} KiB as JSON`);
export type Draft = z.infer<typeof Draft>;

export const draftRequests = {
  /** A form's draft, or null when it has none. */
  'drafts.get': request(z.object({ key: DraftKey }).strict(), z.object({ draft: Draft.nullable(), savedAt: z.string().nullable() })),
  /** Keeps a form's draft; saving null clears it. */
  'drafts.save': request(z.object({ key: DraftKey, draft: Draft.nullable() }).strict(), z.object({ savedAt: z.string().nullable() })),
} as const;
