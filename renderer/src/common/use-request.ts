// One request a control sends on the user's word (a check, a refresh): busy while it runs, then its
// answer kept, or its error in words; a later answer clears an earlier error.

import { useCallback, useState } from 'react';
import { errorMessage } from '../api-context.tsx';

export interface Request<T> {
  busy: boolean;
  answer: T | null;
  error: string | null;
  /** Sends it: `request` starts the call. */
  send: (request: () => Promise<T>) => void;
}

export function useRequest<T>(): Request<T> {
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const send = useCallback((request: () => Promise<T>) => {
    setBusy(true);
    request().then(
      (value) => {
        setAnswer(value);
        setError(null);
        setBusy(false);
      },
      (failure: unknown) => {
        setError(errorMessage(failure));
        setBusy(false);
      },
    );
  }, []);
  return { busy, answer, error, send };
}
