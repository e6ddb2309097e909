// The single entry point every transport calls: checks the request name, validates arguments
// against the contract, runs the handler and turns any failure into `{ code, message }`. Through
// the services' request gate, a request that arrives once shutdown has begun is refused
// (`unavailable`), and shutdown waits for those admitted before. A write that finds the store's
// disk full is `unavailable` too, in words the user can act on.

import { isRequestName, parseArgs, type RequestName } from '../../app/contract.ts';
import { ApiError, type ApiErrorShape } from '../../app/common/errors.ts';
import type { RequestGate } from '../services/request-gate.ts';
import { isStoreOutOfSpace } from '../services/store/store-errors.ts';
import type { Handlers } from './handlers.ts';

export type DispatchOutcome = { ok: true; result: unknown } | { ok: false; error: ApiErrorShape };

export type Dispatcher = (name: unknown, args: unknown) => Promise<DispatchOutcome>;

export function createDispatcher(handlers: Handlers, reportInternal: (error: unknown, name: string) => void, gate?: RequestGate): Dispatcher {
  return async (name, args) => {
    if (!isRequestName(name)) {
      return { ok: false, error: { code: 'unknown_request', message: unknownNameMessage(name) } };
    }
    const parsed = parseArgs(name, args);
    if (!parsed.ok) return parsed;
    try {
      const handler = handlers[name] as (args: unknown) => unknown;
      const run = async () => handler(parsed.args);
      return { ok: true, result: await (gate ? gate.admit(name, run) : run()) };
    } catch (error) {
      if (error instanceof ApiError) return { ok: false, error: error.toJSON() };
      // A full disk is the user's to fix, not a bug to report: say so in their words.
      if (isStoreOutOfSpace(error)) return { ok: false, error: { code: 'unavailable', message: `${name}: the data disk is full, nothing was stored; free space and try again` } };
      reportInternal(error, name satisfies RequestName);
      return { ok: false, error: { code: 'internal', message: `${name} failed: ${(error as Error)?.message ?? String(error)}` } };
    }
  };
}

/** Why `name` names no request, in words: missing, not text, or text that is no request's name. */
export function unknownNameMessage(name: unknown): string {
  if (name === undefined || name === null) return 'the request has no name: send {"name": "<capability>.<request>", "args": {…}}';
  if (typeof name !== 'string') return `the request's name must be text such as "app.info", not ${Array.isArray(name) ? 'a list' : typeof name === 'object' ? 'an object' : `the ${typeof name} ${String(name).slice(0, 40)}`}`;
  return `unknown request "${name.slice(0, 80)}"`;
}
