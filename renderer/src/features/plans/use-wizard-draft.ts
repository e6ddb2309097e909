// The wizard's draft: its answers kept by the back end under the 'wizard' key (use-saved-draft.ts),
// restored field by field.

import { restoreWizard, type WizardDraft } from './wizard-draft.ts';
import { useSavedDraft, type SavedDraft } from './use-saved-draft.ts';

export function useWizardDraft(): SavedDraft<WizardDraft> {
  return useSavedDraft('wizard', restoreWizard);
}
