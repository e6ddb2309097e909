// Live connection state of every host: loaded once, then kept current by `hosts.connection` events.

import { useEffect, useState } from 'react';
import type { HostConnection } from '../../../../app/hosts/connections.ts';
import { useApi, useConnection } from '../../api-context.tsx';

export function useHostConnections(): Map<number, HostConnection> {
  const api = useApi();
  const link = useConnection();
  const [states, setStates] = useState<Map<number, HostConnection>>(new Map());

  useEffect(() => {
    if (link !== 'connected') return;
    const unsubscribe = api.subscribe('hosts.connection', (state) =>
      setStates((current) => new Map(current).set(state.hostId, state)),
    );
    api.hosts.connections().then(
      (list) => setStates((current) => {
        const next = new Map(current);
        for (const state of list) if (!next.has(state.hostId)) next.set(state.hostId, state);
        return next;
      }),
      () => undefined,
    );
    return unsubscribe;
  }, [api, link]);

  return states;
}
