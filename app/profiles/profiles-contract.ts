// The `profiles.*` part of the contract (merged into app/contract.ts): the CPU profile of the server
// process each run of a session captured, missed or had switched off; one run's folded stacks with
// the facts of its capture; and its export as folded text or a flame-graph viewer's file.

import { z } from 'zod';
import { request } from '../common/contract-kit.ts';
import { SessionId } from '../runs/session-identity.ts';
import { Profile, ProfileEntry, ProfileExportFile, ProfileExportFormat } from './profiles.ts';

const RunId = z.number().int().positive();

export const profileRequests = {
  /** Per run of the session that has a profile entry (runs from before profiles, or still going, have none). */
  'profiles.list': request(z.object({ sessionId: SessionId }).strict(), z.array(ProfileEntry)),
  /** A captured profile; not_found when the run has none captured (its entry says why). */
  'profiles.get': request(z.object({ runId: RunId }).strict(), Profile),
  'profiles.export': request(z.object({ runId: RunId, format: ProfileExportFormat }).strict(), ProfileExportFile),
} as const;

export const profileEvents = {} as const;
