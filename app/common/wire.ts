// The message shapes of the web-mode WebSocket. Electron IPC carries the same call/result pairs.

import type { ApiErrorShape } from './errors.ts';

export const WEB_SOCKET_PATH = '/api/ws';
export const HTTP_CALL_PATH = '/api/call';
export const SESSION_COOKIE = 'benchlab_session';

export type ClientMessage =
  | { type: 'call'; id: number; name: string; args: unknown }
  | { type: 'subscribe'; event: string }
  | { type: 'unsubscribe'; event: string };

export type ServerMessage =
  | { type: 'result'; id: number | null; ok: true; result: unknown }
  | { type: 'result'; id: number | null; ok: false; error: ApiErrorShape }
  | { type: 'event'; event: string; payload: unknown };
