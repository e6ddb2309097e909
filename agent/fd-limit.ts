// How many connections the client may open: its soft RLIMIT_NOFILE (from /proc/self/limits) less a
// reserve for the agent's own descriptors (stdio, workers' pipes, /proc reads, the event loops).

import { readProc } from './proc-files.ts';

/** Descriptors kept back for the agent itself. */
export const FD_RESERVE = 64;

/** The soft "Max open files" of a /proc/<pid>/limits text; null when absent or unlimited. */
export function parseOpenFilesLimit(limits: string): number | null {
  const match = /^Max open files\s+(\S+)/m.exec(limits);
  if (!match || match[1] === 'unlimited') return null;
  const soft = Number(match[1]);
  return Number.isSafeInteger(soft) && soft > 0 ? soft : null;
}

/** Connections this process can hold open at once, at least 1; null when the limit is not known. */
export function connectionCeiling(limits = readProc('/proc/self/limits')): number | null {
  const soft = limits === null ? null : parseOpenFilesLimit(limits);
  return soft === null ? null : Math.max(1, soft - FD_RESERVE);
}
