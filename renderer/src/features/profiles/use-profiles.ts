// Reading profiles over the contract: the profile entries of some sessions (captured, missing with
// the reason, or off) and one run's folded stacks, loaded when asked for and kept while shown.

import { useEffect, useState } from 'react';
import type { Profile, ProfileEntry } from '../../../../app/profiles/profiles.ts';
import { errorMessage, useApi, useConnection } from '../../api-context.tsx';

/** The profile entries of the sessions, in the order of the sessions and their runs; null while loading. */
export function useProfileEntries(sessionIds: readonly number[]): { entries: ProfileEntry[] | null; error: string | null } {
  const api = useApi();
  const link = useConnection();
  const key = sessionIds.join(',');
  // Kept with the sessions they answer, so other sessions show nothing stale while they load.
  const [loaded, setLoaded] = useState<{ key: string; entries: ProfileEntry[] | null; error: string | null }>({ key: '', entries: null, error: null });
  useEffect(() => {
    if (link !== 'connected') return;
    let cancelled = false;
    Promise.all(key.split(',').filter(Boolean).map((id) => api.profiles.list({ sessionId: Number(id) }))).then(
      (lists) => !cancelled && setLoaded({ key, entries: lists.flat(), error: null }),
      (failure: unknown) => !cancelled && setLoaded({ key, entries: null, error: errorMessage(failure) }),
    );
    return () => {
      cancelled = true;
    };
  }, [api, link, key]);
  return loaded.key === key ? { entries: loaded.entries, error: loaded.error } : { entries: null, error: null };
}

/** One run's captured profile; null while loading or when no run is chosen. */
export function useProfile(runId: number | null): { profile: Profile | null; error: string | null } {
  const api = useApi();
  const [loaded, setLoaded] = useState<{ runId: number | null; profile: Profile | null; error: string | null }>({ runId: null, profile: null, error: null });
  useEffect(() => {
    if (runId === null) return;
    let cancelled = false;
    api.profiles.get({ runId }).then(
      (profile) => !cancelled && setLoaded({ runId, profile, error: null }),
      (failure: unknown) => !cancelled && setLoaded({ runId, profile: null, error: errorMessage(failure) }),
    );
    return () => {
      cancelled = true;
    };
  }, [api, runId]);
  return loaded.runId === runId && runId !== null ? { profile: loaded.profile, error: loaded.error } : { profile: null, error: null };
}
