// The implementation of every contract request: each capability's handlers (typed from its own
// part of the contract) merged into one map. Arguments arrive validated.

import type { logRequests } from '../../app/common/log-contract.ts';
import type { appRequests, requests } from '../../app/contract.ts';
import type { Services } from '../services/services.ts';
import { createDraftHandlers } from './drafts-handlers.ts';
import type { HandlersFor } from './handler-kit.ts';
import { createHostHandlers } from './hosts-handlers.ts';
import { createPlanHandlers } from './plans-handlers.ts';
import { createPresetHandlers } from './presets-handlers.ts';
import { createProfileHandlers } from './profiles-handlers.ts';
import { createRunHandlers } from './runs-handlers.ts';
import { createSessionHandlers } from './sessions-handlers.ts';
import { createTemplateHandlers } from './templates-handlers.ts';
import { createTerminalHandlers } from './terminals-handlers.ts';

export type Handlers = HandlersFor<typeof requests>;

export function createHandlers(services: Services): Handlers {
  const app: HandlersFor<typeof appRequests> = { 'app.info': () => services.info() };
  const log: HandlersFor<typeof logRequests> = { 'log.backlog': () => services.log.backlog() };
  return {
    ...app,
    ...log,
    ...createHostHandlers(services.hostService),
    ...createTerminalHandlers(services.terminals),
    ...createSessionHandlers(services),
    ...createPresetHandlers(services),
    ...createTemplateHandlers(services.templates),
    ...createRunHandlers(services),
    ...createPlanHandlers(services),
    ...createProfileHandlers(services),
    ...createDraftHandlers(services.formDrafts),
  };
}
