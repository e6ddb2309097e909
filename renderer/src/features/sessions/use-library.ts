// The sessions library, loaded again when another Benchlab process on the same data dir (a CLI run,
// an import) changes the stored sessions (`sessions.changed`).

import type { LibraryEntry } from '../../../../app/sessions/session-library.ts';
import { useLoaded, type Loaded } from '../../common/use-loaded.ts';

export function useLibrary(): Loaded<LibraryEntry[]> {
  return useLoaded((api) => api.sessions.library(), { event: 'sessions.changed', reloadWhen: () => true });
}
