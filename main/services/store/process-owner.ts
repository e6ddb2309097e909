// Which Benchlab process owns what it left in the shared store (a running session, its agents): a
// token of this process — its pid and its start time, so a pid the system reused later is not
// mistaken for us — and whether the process behind a token still runs. Several processes (the app
// and a CLI) work on one data dir; each looks after only what a dead process left.

import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

/** The field of /proc/<pid>/stat after the command name that holds the start time (field 22 of the whole line). */
const START_TIME_FIELD = 19;
/** The marker of a token whose start is a random nonce (no /proc): only its pid can be checked. */
const NONCE_MARK = 'n';

interface ProcStat {
  state: string;
  startTime: string;
}

/** The state and start time (clock ticks since boot) of a process, or null when /proc has none. */
function procStat(pid: number | 'self'): ProcStat | null {
  let line: string;
  try {
    line = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The command name is in parentheses and may itself hold spaces and parentheses: skip to the last ')'.
  const fields = line.slice(line.lastIndexOf(')') + 2).split(' ');
  const startTime = fields[START_TIME_FIELD];
  return fields[0] && startTime ? { state: fields[0], startTime } : null;
}

let token: string | null = null;

/** This process's owner token: `<pid>:<start time>`, or `<pid>:n<nonce>` where there is no /proc. */
export function processOwner(): string {
  token ??= `${process.pid}:${procStat('self')?.startTime ?? NONCE_MARK + randomBytes(8).toString('hex')}`;
  return token;
}

/** Whether the process a token names still runs. A malformed token names no process. */
export function isOwnerAlive(owner: string): boolean {
  const match = /^(\d+):(.+)$/.exec(owner);
  if (!match) return false;
  const pid = Number(match[1]);
  const started = match[2]!;
  if (owner === processOwner()) return true;
  if (pid === process.pid) return false; // our pid, another start: the owner was an earlier process
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (started.startsWith(NONCE_MARK)) return true; // no start time to compare: the pid has to do
  const stat = procStat(pid);
  // A zombie has ended; only its parent has not collected it yet.
  return stat !== null && stat.state !== 'Z' && stat.startTime === started;
}

/** This process in words, for what it holds on shared hosts: "benchlab run (pid 4242 on ci-7)". */
export function processHolder(transport: 'electron' | 'web' | 'cli'): string {
  const who = transport === 'cli' ? 'the benchlab CLI' : transport === 'web' ? 'Benchlab in web mode' : 'the Benchlab app';
  return `${who} (pid ${process.pid} on ${hostname()})`;
}
