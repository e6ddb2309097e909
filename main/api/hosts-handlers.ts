// The `hosts.*` requests, over the HostService (which owns the rules: "This machine", key pinning,
// the system-info cache). Arguments arrive validated.

import type { hostRequests } from '../../app/hosts/hosts-contract.ts';
import type { HostService } from '../services/hosts/host-service.ts';
import type { HandlersFor } from './handler-kit.ts';

export function createHostHandlers(hosts: HostService): HandlersFor<typeof hostRequests> {
  return {
    'hosts.list': () => hosts.list(),
    'hosts.add': (host) => hosts.add(host),
    'hosts.update': ({ id, host }) => hosts.update(id, host),
    'hosts.remove': ({ id }) => ({ removed: hosts.remove(id) }),
    'hosts.addLocal': () => hosts.addLocal(),
    'hosts.importSshConfig': ({ text }) => hosts.importSshConfig(text),
    'hosts.connect': ({ id, secrets }) => hosts.connect(id, secrets),
    'hosts.disconnect': ({ id }) => hosts.disconnect(id),
    'hosts.connections': () => hosts.connections(),
    'hosts.trustKey': ({ id, fingerprint }) => hosts.trustKey(id, fingerprint),
    'hosts.replaceKey': ({ id, fingerprint }) => hosts.replaceKey(id, fingerprint),
    'hosts.systemInfo': ({ id, refresh }) => hosts.systemInfo(id, { refresh }),
    'hosts.reachability': ({ from, to }) => hosts.reachability(from, to),
  };
}
