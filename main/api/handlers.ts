// The implementation of every contract request, over the services. Arguments arrive validated.

import type { ParsedArgs, RequestName, RequestResult } from '../../app/contract.ts';
import type { Services } from '../services/services.ts';

export type Handlers = { [N in RequestName]: (args: ParsedArgs<N>) => RequestResult<N> | Promise<RequestResult<N>> };

export function createHandlers(services: Services): Handlers {
  return {
    'app.info': () => services.info(),
    'hosts.list': () => services.hosts.list(),
    'hosts.add': (host) => {
      const added = services.hosts.add(host);
      services.log.info('hosts', `added host "${added.name}" (${added.user}@${added.address}:${added.port})`);
      return added;
    },
    'hosts.update': ({ id, host }) => {
      const updated = services.hosts.update(id, host);
      services.log.info('hosts', `updated host "${updated.name}"`);
      return updated;
    },
    'hosts.remove': ({ id }) => {
      const name = services.hosts.get(id).name;
      const removed = services.hosts.remove(id);
      if (removed) services.log.info('hosts', `removed host "${name}"`);
      return { removed };
    },
    'sessions.list': ({ search }) => services.sessions.list(search),
    'sessions.get': ({ id }) => services.sessions.get(id),
    'sessions.rename': ({ id, name }) => services.sessions.rename(id, name),
    'sessions.delete': ({ id }) => ({ deleted: services.sessions.delete(id) }),
  };
}
