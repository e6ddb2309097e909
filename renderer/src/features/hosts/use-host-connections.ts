// Live connection state of every host: loaded once, then kept current by `hosts.connection` events.

import type { HostConnection } from '../../../../app/hosts/connections.ts';
import { useKeyedList } from '../../common/use-loaded.ts';

export function useHostConnections(): ReadonlyMap<number, HostConnection> {
  return useKeyedList((api) => api.hosts.connections(), 'hosts.connection', (state) => state.hostId);
}
