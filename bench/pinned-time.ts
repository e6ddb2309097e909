// How a bench on this machine pins the generator and the server each to its own core, so one does
// not starve the other, and reads the generator's own cost with time(1): its CPU seconds (user +
// system of its process tree) and its peak RSS.

import { readFileSync } from 'node:fs';

export const TIME = '/usr/bin/time';
export const GENERATOR_CORE = '0';
export const SERVER_CORE = '1';

/** `argv` on the generator's core, under time(1) writing to `timeFile`, with the hard limit of open files. */
export function timedOnGeneratorCore(timeFile: string, argv: string[]): string[] {
  return ['sh', '-c', 'ulimit -n "$(ulimit -Hn)"; exec "$@"', 'sh', 'taskset', '-c', GENERATOR_CORE, TIME, '-o', timeFile, '-f', '%U %S %M', ...argv];
}

export function readTime(timeFile: string): { cpuS: number; rssBytes: number } {
  // time(1) may write the child's own complaints first; the figures are its last line.
  const last = readFileSync(timeFile, 'utf8').trim().split('\n').pop() ?? '';
  const [user, system, rssKb] = last.split(/\s+/).map(Number);
  return { cpuS: (user ?? Number.NaN) + (system ?? Number.NaN), rssBytes: (rssKb ?? Number.NaN) * 1024 };
}
