// The server under test changing under a run: the sampler names the pid listening on the target's
// port each second, and keeps it until that process ends. The first pid seen is the run's server;
// any other answer after it (none, or another process) means it was stopped or replaced meanwhile —
// by this Benchlab on the user's word, or by another process. The run then records it as a fault
// (its step degraded, with when and what) and never ends completed as one template's result.

import type { StepDegraded } from '../../../app/runs/runs.ts';

export interface ServerChange {
  atS: number;
  /** The pid the run loaded (null: not found yet), and what listens on the port now (null: nothing). */
  before: number | null;
  after: number | null;
  /** Set when this Benchlab takes it down itself, said before it goes: why. */
  by?: string;
}

/** Watches the sampler's pids; `seen` returns the change once, the first time the pid is not the run's. */
export class ServerPidWatch {
  #pid: number | null = null;
  #changed = false;

  /** This Benchlab is taking the server down (`why`): the change, once, before the sampler sees it. */
  takenDown(atS: number, why: string): ServerChange | null {
    if (this.#changed) return null;
    this.#changed = true;
    return { atS, before: this.#pid, after: null, by: why };
  }

  seen(pid: number | null, atS: number): ServerChange | null {
    if (this.#changed) return null;
    if (this.#pid === null) {
      this.#pid = pid;
      return null;
    }
    if (pid === this.#pid) return null;
    this.#changed = true;
    return { atS, before: this.#pid, after: pid };
  }
}

/** What the run records: why its step is degraded and the session failed, in words a person can act on. */
export function describeServerChange(change: ServerChange, server: { hostName: string; label: string; port: number }, now: string | null): string {
  const how = change.by
    ? `was ${change.by}`
    : change.after === null
      ? `stopped (pid ${change.before} ended; nothing listens on port ${server.port})`
      : `was replaced (pid ${change.before} ended; pid ${change.after} listens on port ${server.port})`;
  return `the server under test, ${server.label}, ${how} at ${change.atS.toFixed(1)} s${now ? `; ${now}` : ''}. The load was stopped: what follows would not be ${server.label}'s`;
}

export function serverDegraded(change: ServerChange, hostName: string, message: string, lostSeconds: number): StepDegraded {
  return { clientIndex: null, lost: 'server', hostName, atS: change.atS, message, lostSeconds };
}
