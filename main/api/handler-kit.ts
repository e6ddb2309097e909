// What every *-handlers.ts builds on. `HandlersFor` derives a capability's handler type from its
// own request map: one function per request, given the arguments as the request's schema parsed
// them (dispatch validates before calling) and answering the request's result. Each handler
// module types itself from its capability's map and handlers.ts merges them, so no handler
// module imports handlers.ts.

import type { z } from 'zod';
import type { RequestMap } from '../../app/common/contract-kit.ts';

export type HandlersFor<M extends RequestMap> = {
  [N in keyof M]: (args: z.output<M[N]['args']>) => z.output<M[N]['result']> | Promise<z.output<M[N]['result']>>;
};

/** The `{}` answer of a request whose service command answers nothing: `(…) => noAnswer(service.command(…))`. */
export function noAnswer(_command: void): {} {
  return {};
}
