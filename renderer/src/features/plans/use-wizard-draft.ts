// The wizard's draft: loaded from the back end once it is reachable, saved back shortly after every
// change (so a reload, or a restart, finds the wizard where the user left it). `saved` says when
// the back end holds the latest change (the page shows it, and tests wait for it).

import { useCallback, useEffect, useRef, useState } from 'react';
import { errorMessage, useApi, useConnection } from '../../api-context.tsx';
import { DEFAULT_WIZARD, restoreWizard, type WizardDraft } from './wizard-draft.ts';

const SAVE_DELAY_MS = 300;

export function useWizardDraft(): {
  draft: WizardDraft | null;
  update: (change: Partial<WizardDraft> | ((current: WizardDraft) => Partial<WizardDraft>)) => void;
  saveError: string | null;
  saved: boolean;
} {
  const api = useApi();
  const link = useConnection();
  const [draft, setDraft] = useState<WizardDraft | null>(null);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [saved, setSaved] = useState(true);
  // Counts changes: a save answers for the latest one only if no change came after it.
  const changes = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const pending = useRef<WizardDraft | null>(null);

  useEffect(() => {
    if (link !== 'connected' || draft !== null) return;
    api.plans.draft().then(
      (saved) => setDraft((current) => current ?? restoreWizard(saved.draft)),
      () => setDraft((current) => current ?? DEFAULT_WIZARD),
    );
  }, [api, link, draft]);

  const flush = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    const next = pending.current;
    pending.current = null;
    if (!next) return;
    const change = changes.current;
    api.plans.saveDraft({ draft: next as unknown as Record<string, unknown> }).then(
      () => {
        setSaveError(null);
        if (change === changes.current) setSaved(true);
      },
      (failure: unknown) => setSaveError(`The wizard could not be saved: ${errorMessage(failure)}`),
    );
  }, [api]);

  // A pending save still goes out when the page is left.
  useEffect(() => flush, [flush]);

  const update = useCallback(
    (change: Partial<WizardDraft> | ((current: WizardDraft) => Partial<WizardDraft>)) => {
      changes.current += 1;
      setSaved(false);
      setDraft((current) => {
        const base = current ?? DEFAULT_WIZARD;
        const next = { ...base, ...(typeof change === 'function' ? change(base) : change) };
        pending.current = next;
        if (timer.current) clearTimeout(timer.current);
        timer.current = setTimeout(flush, SAVE_DELAY_MS);
        return next;
      });
    },
    [flush],
  );

  return { draft, update, saveError, saved };
}
