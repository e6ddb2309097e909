// The stored hosts, loaded when the back end is reachable, with a reload for after changes.

import { useCallback, useEffect, useState } from 'react';
import type { Host } from '../../../app/hosts.ts';
import { errorMessage, useApi, useConnection } from '../api-context.tsx';

export function useHosts(): { hosts: Host[] | null; error: string | null; setError: (error: string | null) => void; reload: () => void } {
  const api = useApi();
  const link = useConnection();
  const [hosts, setHosts] = useState<Host[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  const reload = useCallback(() => {
    api.hosts.list().then(
      (list) => {
        setHosts(list);
        setError(null);
      },
      (failure: unknown) => setError(errorMessage(failure)),
    );
  }, [api]);

  useEffect(() => {
    if (link === 'connected') reload();
  }, [link, reload]);

  return { hosts, error, setError, reload };
}
