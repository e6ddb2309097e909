// The `runs.*` requests of the contract: load sessions over the RunService (the profile arrives
// validated by its schema, so a bad profile never reaches the service), and the host facts — the
// noise pre-flight before a start, and a session's own snapshot of its hosts (live run, replay).

import type { runRequests } from '../../app/runs/runs-contract.ts';
import type { Services } from '../services/services.ts';
import { noAnswer, type HandlersFor } from './handler-kit.ts';

export function createRunHandlers({ runs, hostFacts }: Pick<Services, 'runs' | 'hostFacts'>): HandlersFor<typeof runRequests> {
  return {
    'runs.start': (args) => runs.start(args),
    'runs.stop': ({ sessionId }) => runs.stop(sessionId),
    'runs.live': () => runs.live(),
    'runs.ack': ({ sessionId, seq }) => noAnswer(runs.ack(sessionId, seq)),
    'runs.list': ({ sessionId }) => runs.list(sessionId),
    'runs.preflight': ({ clientHostId, clientHostIds, serverHostId, port }) =>
      hostFacts.check({ clientHostIds: clientHostIds ?? [clientHostId], serverHostId: serverHostId ?? null, port: port ?? null }),
    'runs.hostFacts': ({ sessionId }) => hostFacts.ofSession(sessionId),
  };
}
