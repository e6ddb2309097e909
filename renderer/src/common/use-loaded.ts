// One value read from the back end once it is reachable, with a reload for after changes and the
// failure in words: the hosts, presets, templates and studies lists all load this way.

import { useCallback, useEffect, useRef, useState } from 'react';
import type { BenchlabApi } from '../../../app/contract.ts';
import { errorMessage, useApi, useConnection } from '../api-context.tsx';

export interface Loaded<T> {
  /** Null until the first answer. */
  value: T | null;
  error: string | null;
  setError: (error: string | null) => void;
  reload: () => void;
}

export function useLoaded<T>(load: (api: BenchlabApi) => Promise<T>): Loaded<T> {
  const api = useApi();
  const link = useConnection();
  const [value, setValue] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The latest loader, so callers may pass an inline function without reloading on every render.
  const loader = useRef(load);
  useEffect(() => {
    loader.current = load;
  });

  const reload = useCallback(() => {
    loader.current(api).then(
      (loaded) => {
        setValue(loaded);
        setError(null);
      },
      (failure: unknown) => setError(errorMessage(failure)),
    );
  }, [api]);

  useEffect(() => {
    if (link === 'connected') reload();
  }, [link, reload]);

  return { value, error, setError, reload };
}
