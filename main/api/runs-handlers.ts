// The `runs.*` requests of the contract, over the RunService. Arguments arrive validated (the
// profile by its schema, so a bad profile never reaches the service).

import type { RunService } from '../services/runs/run-service.ts';
import type { Handlers } from './handlers.ts';

export type RunHandlers = Pick<Handlers, 'runs.start' | 'runs.stop' | 'runs.live' | 'runs.ack' | 'runs.list'>;

export function createRunHandlers(runs: RunService): RunHandlers {
  return {
    'runs.start': (args) => runs.start(args),
    'runs.stop': ({ sessionId }) => runs.stop(sessionId),
    'runs.live': () => runs.live(),
    'runs.ack': ({ sessionId, seq }) => {
      runs.ack(sessionId, seq);
      return {};
    },
    'runs.list': ({ sessionId }) => runs.list(sessionId),
  };
}
