// The sandboxed preload: exposes `window.benchlab`, built from the contract by `buildApi`, over the
// IPC channels of channels.ts. It holds no logic of its own. A sandboxed preload may require only
// 'electron', so electron-vite bundles this file (zod included) into one CommonJS file.

import { contextBridge, ipcRenderer } from 'electron';
import { buildApi, type EventName, type RequestName, type TransportCall } from '../../app/contract.ts';
import { isApiErrorShape, type ApiErrorShape } from '../../app/common/errors.ts';
import type { DispatchOutcome } from '../api/dispatch.ts';
import { CALL_CHANNEL, EVENT_CHANNEL, SUBSCRIBE_CHANNEL, UNSUBSCRIBE_CHANNEL } from './channels.ts';

// Rejections are plain `{ code, message }` objects: contextBridge copies a plain object whole, but
// reduces an Error (subclass or not) to its message, and the UI needs the code.
function failure(code: ApiErrorShape['code'], message: string, details?: Record<string, string>): Promise<never> {
  return Promise.reject<never>((details ? { code, message, details } : { code, message }) satisfies ApiErrorShape);
}

async function call(name: RequestName, args: unknown): Promise<unknown> {
  let outcome: DispatchOutcome;
  try {
    outcome = (await ipcRenderer.invoke(CALL_CHANNEL, name, args)) as DispatchOutcome;
  } catch (error) {
    // invoke itself failed, e.g. arguments that cannot be cloned (a function, a DOM node).
    return failure('invalid_args', `${name}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (outcome.ok) return outcome.result;
  const { error } = outcome;
  return isApiErrorShape(error) ? failure(error.code, error.message, error.details) : failure('internal', `${name} failed`);
}

const listeners = new Map<EventName, Set<(payload: unknown) => void>>();

ipcRenderer.on(EVENT_CHANNEL, (_event, name: EventName, payload: unknown) => {
  listeners.get(name)?.forEach((listener) => listener(payload));
});

function subscribe(event: EventName, listener: (payload: unknown) => void): () => void {
  let set = listeners.get(event);
  if (!set) {
    set = new Set();
    listeners.set(event, set);
    ipcRenderer.send(SUBSCRIBE_CHANNEL, event);
  }
  const mine = set;
  mine.add(listener);
  return () => {
    if (!mine.delete(listener) || mine.size > 0) return;
    listeners.delete(event);
    ipcRenderer.send(UNSUBSCRIBE_CHANNEL, event);
  };
}

contextBridge.exposeInMainWorld('benchlab', buildApi('electron', { call, subscribe } satisfies TransportCall));
