// The sessions capability's requests: stored sessions (`sessions.*`), the library (notes and tags,
// duplicate, Run again), comparisons and their PDF export (`compare.*`) and replay (`replay.*`),
// over the sessions repository, the comparison service, Run again and the report exporter.

import type { sessionRequests } from '../../app/sessions/sessions-contract.ts';
import type { Services } from '../services/services.ts';
import type { HandlersFor } from './handler-kit.ts';

export function createSessionHandlers({ sessions, compare, rerun, reports, exports, imports }: Pick<Services, 'sessions' | 'compare' | 'rerun' | 'reports' | 'exports' | 'imports'>): HandlersFor<typeof sessionRequests> {
  return {
    'sessions.list': () => sessions.list(),
    'sessions.get': ({ id }) => sessions.get(id),
    'sessions.rename': ({ id, name }) => sessions.rename(id, name),
    'sessions.delete': ({ id }) => ({ deleted: sessions.delete(id) }),
    'sessions.library': () => compare.library(),
    'sessions.update': ({ id, notes, tags }) => compare.update(id, { notes, tags }),
    'sessions.duplicate': ({ id }) => compare.duplicate(id),
    'sessions.runAgain': ({ id }) => rerun.runAgain(id),
    'sessions.importBegin': ({ size, ...request }) => imports.beginUpload(request, size),
    'sessions.importChunk': ({ uploadId, offset, data }) => imports.uploadChunk(uploadId, offset, data),
    'sessions.importFinish': ({ uploadId }) => imports.finishUpload(uploadId),
    'sessions.importCancel': ({ uploadId }) => imports.cancelUpload(uploadId),
    'sessions.export': ({ id, format }) => exports.export(id, format),
    'compare.open': (selection) => compare.open(selection),
    'compare.exportPdf': ({ notes, deliver, ...selection }) => reports.export(compare.open(selection), { notes, deliver }),
    'compare.export': ({ format, ...selection }) => exports.exportComparison(compare.open(selection), format),
    'replay.load': ({ sessionId }) => compare.replay(sessionId),
  };
}
