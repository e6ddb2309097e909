// `npm run web` hands out another one-time URL on demand: on Enter (or `u` and Enter) at its
// terminal, and on SIGUSR2 from anywhere (`kill -USR2 <pid>`), e.g. when web mode runs in the
// background or under a script. Each request mints one new URL and spends nothing else.

import { spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface NewUrlOnDemand {
  /** Whether Enter at this terminal works (stdin is a TTY and this is not CI); SIGUSR2 always does. */
  readonly readsTerminal: boolean;
}

/**
 * Whether this process is the terminal's foreground job. A background job (`npm run web &`) that
 * reads its terminal is stopped by the kernel (SIGTTIN) as soon as a key is typed in the shell, which
 * would freeze web mode: such a job answers SIGUSR2 only.
 */
function isTerminalForeground(): boolean {
  if (process.platform === 'win32') return true; // no job control there
  const ps = spawnSync('ps', ['-o', 'pgid=,tpgid=', '-p', String(process.pid)], { encoding: 'utf8' });
  const [group, foreground] = (ps.stdout ?? '').trim().split(/\s+/).map(Number);
  return ps.status === 0 && group !== undefined && group > 0 && group === foreground;
}

/**
 * Calls `onEnter` for each Enter (or `u` and Enter) typed at this process's terminal, when it has
 * one it may read (a TTY, not CI, the foreground job); returns whether it reads. Also used by
 * `npm start`, which forwards Enter to its web mode child (whose stdin is not the terminal).
 */
export function onEnterAtTerminal(onEnter: () => void): boolean {
  // Without a terminal (CI, `npm start`'s child, a pipe) nothing reads stdin: it is not ours to drain.
  const readsTerminal = process.stdin.isTTY === true && !process.env.CI && isTerminalForeground();
  if (readsTerminal) {
    // Line mode, so the terminal keeps echoing and Ctrl-C keeps its meaning.
    createInterface({ input: process.stdin }).on('line', (line) => {
      const typed = line.trim().toLowerCase();
      if (typed === '' || typed === 'u') onEnter();
    });
    // Reading must not keep the process alive once its work has ended.
    process.stdin.unref();
  }
  return readsTerminal;
}

export function offerNewUrls(mintUrl: () => string, print: (url: string) => void): NewUrlOnDemand {
  const printNew = () => print(mintUrl());
  // Windows has no SIGUSR2: there, the terminal is the only way.
  if (process.platform !== 'win32') process.on('SIGUSR2', printNew);
  return { readsTerminal: onEnterAtTerminal(printNew) };
}
