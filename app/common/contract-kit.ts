// Building blocks for the contract's request maps: each capability exports its own map
// (app/<capability>/<capability>-contract.ts) built with these, and app/contract.ts composes them.

import { z } from 'zod';

/** Arguments of a request that takes none. */
export const NoArgs = z.object({}).strict();

/** One request: the schema its arguments are validated with, and the schema of its result. */
export interface RequestSpec<A extends z.ZodType = z.ZodType, R extends z.ZodType = z.ZodType> {
  readonly args: A;
  readonly result: R;
}

/** A capability's requests by name (e.g. `hostRequests`), or the whole contract's. */
export type RequestMap = Readonly<Record<string, RequestSpec>>;

export function request<A extends z.ZodType, R extends z.ZodType>(args: A, result: R): RequestSpec<A, R> {
  return { args, result };
}
