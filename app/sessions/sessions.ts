// The session model as the UI sees it: a named experiment with its hosts, config and status.

import { z } from 'zod';
import { SessionId } from '../runs/session-identity.ts';

export const SESSION_STATUSES = ['draft', 'running', 'completed', 'failed', 'cancelled', 'interrupted'] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

export const SessionSummary = z.object({
  id: SessionId,
  name: z.string(),
  status: z.enum(SESSION_STATUSES),
  tags: z.array(z.string()),
  clientHostId: z.number().nullable(),
  serverHostId: z.number().nullable(),
  runCount: z.number().int(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  endedAt: z.string().nullable(),
});
export type SessionSummary = z.infer<typeof SessionSummary>;

export const Session = SessionSummary.extend({
  notes: z.string(),
  config: z.record(z.string(), z.unknown()),
  originSessionId: z.number().nullable(),
});
export type Session = z.infer<typeof Session>;
