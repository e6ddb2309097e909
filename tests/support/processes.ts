// What a test asks of a process it started or found by pid.

import { readdirSync, readFileSync } from 'node:fs';

/** Whether a process with this pid exists (signal 0 only checks; a zombie still counts). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Pids of the processes whose parent is `parent` and whose name is `name` (from /proc). */
export function childProcesses(parent: number, name: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // "pid (comm) state ppid …": comm may hold spaces, so split after the closing parenthesis.
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === parent && comm === name) pids.push(Number(entry));
    } catch {
      // ended while we looked
    }
  }
  return pids;
}
