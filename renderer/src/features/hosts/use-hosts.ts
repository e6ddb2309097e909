// The stored hosts, loaded when the back end is reachable, with a reload for after changes.

import type { Host } from '../../../../app/hosts/hosts.ts';
import { useLoaded } from '../../common/use-loaded.ts';

export function useHosts(): { hosts: Host[] | null; error: string | null; setError: (error: string | null) => void; reload: () => void } {
  const { value, error, setError, reload } = useLoaded((api) => api.hosts.list());
  return { hosts: value, error, setError, reload };
}
