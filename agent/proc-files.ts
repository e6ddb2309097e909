// Reading /proc without failing: a file that is missing (not Linux, a process that just exited,
// a permission) reads as null and the sample carries a null or zero rather than ending the agent.

import { readdirSync, readFileSync } from 'node:fs';

export function readProc(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

export function listProc(path: string): string[] | null {
  try {
    return readdirSync(path);
  } catch {
    return null;
  }
}
