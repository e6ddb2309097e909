// The contract's requests of the sessions library, comparison, PDF export and replay, over the
// comparison service and the report exporter. "Run again" starts the original's configuration
// through the run service and links the new session to it.

import { ApiError } from '../../app/common/errors.ts';
import { LoadProfile } from '../../app/runs/load-profile.ts';
import type { Services } from '../services/services.ts';
import type { Handlers } from './handlers.ts';

export type CompareHandlers = Pick<
  Handlers,
  'sessions.library' | 'sessions.update' | 'sessions.duplicate' | 'sessions.runAgain' | 'compare.open' | 'compare.exportPdf' | 'replay.load'
>;

export function createCompareHandlers(services: Services): CompareHandlers {
  const { compare, reports } = services;
  return {
    'sessions.library': () => compare.library(),
    'sessions.update': ({ id, notes, tags }) => compare.update(id, { notes, tags }),
    'sessions.duplicate': ({ id }) => compare.duplicate(id),
    'sessions.runAgain': async ({ id }) => {
      const original = services.sessions.get(id);
      const profile = LoadProfile.safeParse(original.config.profile);
      if (!profile.success) throw new ApiError('invalid_args', `“${original.name}” has no load profile to run again`);
      if (original.clientHostId === null) throw new ApiError('invalid_args', `“${original.name}” has no client host any more`);
      const live = await services.runs.start({
        name: `${original.name} (again)`.slice(0, 200),
        clientHostId: original.clientHostId,
        serverHostId: original.serverHostId,
        profile: profile.data,
      });
      compare.linkRerun(live.sessionId, id);
      return live;
    },
    'compare.open': (selection) => compare.open(selection),
    'compare.exportPdf': ({ notes, ...selection }) => reports.export(compare.open(selection), { notes }),
    'replay.load': ({ sessionId }) => compare.replay(sessionId),
  };
}
