// The implementation of every contract request, over the services. Arguments arrive validated.

import type { ParsedArgs, RequestName, RequestResult } from '../../app/contract.ts';
import type { Services } from '../services/services.ts';
import { createCompareHandlers } from './sessions-handlers.ts';
import { createHostFactsHandlers } from './host-facts-handlers.ts';
import { createHostHandlers } from './hosts-handlers.ts';
import { createPlanHandlers } from './plans-handlers.ts';
import { createPresetHandlers } from './presets-handlers.ts';
import { createRunHandlers } from './runs-handlers.ts';
import { createTemplateHandlers } from './templates-handlers.ts';
import { createTerminalHandlers } from './terminals-handlers.ts';

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
