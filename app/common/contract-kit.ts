// Building blocks for the contract's request maps, shared by app/contract.ts and the
// per-capability maps it merges (e.g. app/presets/presets-contract.ts).

import { z } from 'zod';

/** Arguments of a request that takes none. */
export const NoArgs = z.object({}).strict();

export function request<A extends z.ZodType, R extends z.ZodType>(args: A, result: R) {
  return { args, result };
}
