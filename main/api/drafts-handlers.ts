// The `drafts.*` requests of the contract: the forms' drafts, kept by FormDrafts.

import type { draftRequests } from '../../app/drafts/drafts-contract.ts';
import type { FormDrafts } from '../services/drafts/form-drafts.ts';
import type { HandlersFor } from './handler-kit.ts';

export function createDraftHandlers(forms: FormDrafts): HandlersFor<typeof draftRequests> {
  return {
    'drafts.get': ({ key }) => forms.load(key),
    'drafts.save': ({ key, draft }) => forms.save(key, draft),
  };
}
