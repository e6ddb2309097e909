// The `hosts.*` requests: stored entries, "This machine", ~/.ssh/config import, connections,
// host key pinning, system info and client→server reachability.

import { userInfo } from 'node:os';
import { ApiError } from '../../app/common/errors.ts';
import type { Services } from '../services/services.ts';
import { readSshConfigCandidates } from '../services/hosts/ssh-config-import.ts';
import { collectSystemInfo, measureReachability } from '../services/hosts/system-info.ts';
import type { Handlers } from './handlers.ts';

type HostHandlers = Pick<Handlers, Extract<keyof Handlers, `hosts.${string}`>>;

export const LOCAL_HOST_NAME = 'This machine';

export function createHostHandlers(services: Services): HostHandlers {
  const { hosts, connections, log } = services;

  const pin = (id: number, fingerprint: string, replace: boolean) => {
    const host = hosts.get(id);
    if (!replace && host.hostKeyFingerprint) {
      throw new ApiError('conflict', `${host.name} already has a pinned key; replacing it is a separate, explicit action`);
    }
    if (replace && !host.hostKeyFingerprint) throw new ApiError('conflict', `${host.name} has no pinned key to replace`);
    const presented = connections.presentedKey(id);
    if (presented !== fingerprint) {
      throw new ApiError('invalid_args', `fingerprint: ${fingerprint} is not the key ${host.name} presented; connect first and check the key shown`);
    }
    const pinned = hosts.pinKey(id, fingerprint);
    log.info('hosts', `${host.name}: ${replace ? 'replaced the pinned host key with' : 'pinned host key'} ${fingerprint}`);
    return pinned;
  };

  return {
    'hosts.list': () => hosts.list(),
    'hosts.add': (host) => {
      const added = hosts.add(host);
      log.info('hosts', `added host "${added.name}" (${added.user}@${added.address}:${added.port})`);
      return added;
    },
    'hosts.update': ({ id, host }) => {
      const updated = hosts.update(id, host);
      log.info('hosts', `updated host "${updated.name}"`);
      return updated;
    },
    'hosts.remove': ({ id }) => {
      const name = hosts.get(id).name;
      connections.disconnect(id);
      const removed = hosts.remove(id);
      if (removed) log.info('hosts', `removed host "${name}"`);
      return { removed };
    },
    'hosts.addLocal': () => {
      const existing = hosts.list().find((host) => host.kind === 'local');
      if (existing) return existing;
      const added = hosts.add({ name: LOCAL_HOST_NAME, kind: 'local', address: 'localhost', port: 22, user: userInfo().username, auth: 'agent' });
      log.info('hosts', 'added "This machine"');
      return added;
    },
    'hosts.importSshConfig': ({ text }) => readSshConfigCandidates(text),
    'hosts.connect': async ({ id, secrets }) => {
      const host = hosts.get(id);
      const connection = await connections.connect(id, secrets ?? {});
      log.info('hosts', `${host.name}: connected`);
      return connection;
    },
    'hosts.disconnect': ({ id }) => connections.disconnect(id),
    'hosts.connections': () => connections.list(),
    'hosts.trustKey': ({ id, fingerprint }) => pin(id, fingerprint, false),
    'hosts.replaceKey': ({ id, fingerprint }) => pin(id, fingerprint, true),
    'hosts.systemInfo': async ({ id, refresh }) => {
      const stored = services.snapshots.latest(id);
      if (stored && !refresh) return stored;
      if (connections.state(id).state !== 'connected') return stored;
      const info = await collectSystemInfo(connections.transportFor(id));
      services.snapshots.add(id, info);
      return info;
    },
    'hosts.reachability': ({ from, to }) => {
      const target = hosts.get(to);
      if (target.kind === 'local') throw new ApiError('invalid_args', 'to: "This machine" has no address other hosts can reach');
      return measureReachability(connections.transportFor(from), { address: target.address, port: target.port }, { from, to });
    },
  };
}
