// The host-facts requests of the contract: the noise pre-flight before a start, and a session's own
// snapshot of its hosts (the live run, replay).

import type { Services } from '../services/services.ts';
import type { Handlers } from './handlers.ts';

export type HostFactsHandlers = Pick<Handlers, 'runs.preflight' | 'runs.hostFacts'>;

export function createHostFactsHandlers(services: Pick<Services, 'hostFacts' | 'snapshots' | 'sessions'>): HostFactsHandlers {
  return {
    'runs.preflight': ({ clientHostId, serverHostId, port }) => services.hostFacts.check({ clientHostId, serverHostId: serverHostId ?? null, port: port ?? null }),
    'runs.hostFacts': ({ sessionId }) => {
      services.sessions.get(sessionId);
      return services.snapshots.forSession(sessionId);
    },
  };
}
