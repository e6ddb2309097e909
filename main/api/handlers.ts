// The implementation of every contract request, over the services. Arguments arrive validated.

import type { ParsedArgs, RequestName, RequestResult } from '../../app/contract.ts';
import type { Services } from '../services/services.ts';
import { createCompareHandlers } from './compare-handlers.ts';
import { createHostFactsHandlers } from './host-facts-handlers.ts';
import { createHostHandlers } from './host-handlers.ts';
import { createPlanHandlers } from './plan-handlers.ts';
import { createPresetHandlers } from './preset-handlers.ts';
import { createRunHandlers } from './run-handlers.ts';
import { createTemplateHandlers } from './template-handlers.ts';
import { createTerminalHandlers } from './terminal-handlers.ts';

export type Handlers = { [N in RequestName]: (args: ParsedArgs<N>) => RequestResult<N> | Promise<RequestResult<N>> };

export function createHandlers(services: Services): Handlers {
  return {
    'app.info': () => services.info(),
    ...createHostHandlers(services),
    ...createPresetHandlers(services),
    ...createTerminalHandlers(services.terminals),
    ...createTemplateHandlers(services.templates),
    ...createRunHandlers(services.runs),
    ...createHostFactsHandlers(services),
    ...createCompareHandlers(services),
    ...createPlanHandlers(services),
    'sessions.list': ({ search }) => services.sessions.list(search),
    'sessions.get': ({ id }) => services.sessions.get(id),
    'sessions.rename': ({ id, name }) => services.sessions.rename(id, name),
    'sessions.delete': ({ id }) => ({ deleted: services.sessions.delete(id) }),
  };
}
