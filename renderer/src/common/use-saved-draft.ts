// A form's draft kept by the back end (drafts.get/drafts.save under its key): loaded once the back end is
// reachable, saved back shortly after every change, so a reload, a restart or a visit to another
// page finds the form where the user left it. `saved` says when the back end holds the latest
// change (pages show it, and tests wait for it).

import { useCallback, useEffect, useRef, useState } from 'react';
import type { DraftKey } from '../../../app/drafts/drafts-contract.ts';
import { errorMessage, useApi, useConnection } from '../api-context.tsx';

const SAVE_DELAY_MS = 300;

export interface SavedDraft<T> {
  draft: T | null;
  update: (change: Partial<T> | ((current: T) => Partial<T>)) => void;
  saveError: string | null;
  saved: boolean;
}

/** `restore` turns whatever was saved (or null) into a valid draft, field by field. */
export function useSavedDraft<T extends object>(key: DraftKey, restore: (saved: unknown) => T): SavedDraft<T> {
  const api = useApi();
  const link = useConnection();
  const [draft, setDraft] = useState<T | null>(null);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [saved, setSaved] = useState(true);
  // Counts changes: a save answers for the latest one only if no change came after it.
  const changes = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const pending = useRef<T | null>(null);
  const restoreRef = useRef(restore);

  useEffect(() => {
    if (link !== 'connected' || draft !== null) return;
    api.drafts.get({ key }).then(
      (stored) => setDraft((current) => current ?? restoreRef.current(stored.draft)),
      () => setDraft((current) => current ?? restoreRef.current(null)),
    );
  }, [api, link, draft, key]);

  const flush = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    const next = pending.current;
    pending.current = null;
    if (!next) return;
    const change = changes.current;
    api.drafts.save({ key, draft: next as unknown as Record<string, unknown> }).then(
      () => {
        setSaveError(null);
        if (change === changes.current) setSaved(true);
      },
      (failure: unknown) => setSaveError(`The form could not be saved: ${errorMessage(failure)}`),
    );
  }, [api, key]);

  // A pending save still goes out when the page is left.
  useEffect(() => flush, [flush]);

  const update = useCallback(
    (change: Partial<T> | ((current: T) => Partial<T>)) => {
      changes.current += 1;
      setSaved(false);
      setDraft((current) => {
        const base = current ?? restoreRef.current(null);
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
