// The wizard's draft: its answers kept by the back end under the 'wizard' key (common/use-saved-draft.ts),
// restored field by field.

import { restoreWizard, type WizardDraft } from './wizard-draft.ts';
import { useSavedDraft, type SavedDraft } from '../../common/use-saved-draft.ts';

export function useWizardDraft(): SavedDraft<WizardDraft> {
  return useSavedDraft('wizard', restoreWizard);
}
