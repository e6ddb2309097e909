// How a session is named and referred to: its id and the name it is given. Starting a run creates
// its session, so these live with runs, below the session model (app/sessions/sessions.ts) and
// everything built on it.

import { z } from 'zod';
import { hasControlCharacters } from '../common/text.ts';

export const SessionId = z.number({ error: 'must be a session id' }).int('must be a session id').positive('must be a session id');

export const SessionName = z
  .string()
  .trim()
  .min(1, 'is required')
  .max(200, 'must be at most 200 characters')
  .refine((text) => !hasControlCharacters(text), 'must not contain line breaks or control characters');
