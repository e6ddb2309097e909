// The `profiles.*` requests: a session's profile entries, one run's folded stacks, and its export,
// over the ProfileService.

import type { profileRequests } from '../../app/profiles/profiles-contract.ts';
import type { Services } from '../services/services.ts';
import type { HandlersFor } from './handler-kit.ts';

export function createProfileHandlers({ profiles }: Pick<Services, 'profiles'>): HandlersFor<typeof profileRequests> {
  return {
    'profiles.list': ({ sessionId }) => profiles.list(sessionId),
    'profiles.get': ({ runId }) => profiles.get(runId),
    'profiles.export': ({ runId, format }) => profiles.export(runId, format),
  };
}
