// The one place that tells "the store is out of space" from other store errors: SQLite's own full
// code (SQLITE_FULL: the disk or the file's page limit), its I/O errors (SQLITE_IOERR and its
// extended codes, which a write or a WAL checkpoint on a full disk can end in), and the file
// system's ENOSPC. Wherever the run path writes, such an error is a fault to report, never a crash.

import { clockTime } from '../../../app/common/clock-time.ts';

export function isStoreOutOfSpace(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string') return false;
  return code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'SQLITE_IOERR' || code.startsWith('SQLITE_IOERR_');
}

/** What a run ended by a full store says: where, what was kept, what to do. */
export function storeFullMessage(dataDir: string, lastStoredAtMs: number | null): string {
  const kept = lastStoredAtMs === null ? 'nothing was stored' : `stored up to ${clockTime(lastStoredAtMs)}`;
  return `the data disk is full (${dataDir}): ${kept}; free space and start again`;
}
