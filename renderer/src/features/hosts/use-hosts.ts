// The stored hosts, loaded when the back end is reachable, with a reload for after changes.

import type { Host } from '../../../../app/hosts/hosts.ts';
import { useLoaded, type Loaded } from '../../common/use-loaded.ts';

export function useHosts(): Omit<Loaded<Host[]>, 'value'> & { hosts: Host[] | null } {
  const { value, ...rest } = useLoaded((api) => api.hosts.list());
  return { hosts: value, ...rest };
}
