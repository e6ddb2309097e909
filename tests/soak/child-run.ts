// The back end in a child process (tests/support/child-back-end.ts) running one session against the
// soak lab, and what the faults read of it: when to strike and the first report of the fault.

import { spawnChildRun, type ChildRun, type ChildState } from '../support/child-back-end.ts';
import { until } from '../support/until.ts';
import { machineLoad } from './figures.ts';
import type { Random } from './seeded-random.ts';
import { agentPid, type SoakLab } from './soak-lab.ts';

export interface ChildProfile {
  durationS: number;
  rate: number;
}

export function startChildRun(lab: SoakLab, dataDir: string, profile: ChildProfile, options: { exitWhenDone: boolean }): ChildRun {
  return spawnChildRun(dataDir, {
    connect: lab.connect,
    exitWhenDone: options.exitWhenDone,
    profile: { target: lab.server.url, request: { path: '/soak', timeoutMs: 2000 }, load: { model: 'open', rate: profile.rate, durationS: profile.durationS, connections: 10 }, warmupS: 0 },
  });
}

/** The first `runs.state` published after `since` that names a fault: a message, an end, or a field the plain run has not. */
export function firstReport(states: readonly ChildState[], since: number): { afterMs: number; said: string } | null {
  const plain = new Set(['sessionId', 'name', 'status', 'clientHostId', 'serverHostId', 'currentStep', 'message', 'startedAt', 'endedAt', 'failed', 'publishedAt']);
  for (const state of states) {
    if (state.publishedAt < since) continue;
    const other = Object.entries(state).find(([key, value]) => !plain.has(key) && isSet(value));
    if (state.message || !['starting', 'running', 'pausing'].includes(state.status) || other) {
      // Clock times differ from run to run; the table groups what was said by its words.
      const said = [state.status, state.message, other ? `${other[0]}: ${JSON.stringify(other[1])}` : null]
        .filter(Boolean)
        .join(': ')
        .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, 'TIME')
        .replace(/\d\d:\d\d:\d\d/g, 'HH:MM:SS');
      return { afterMs: state.publishedAt - since, said };
    }
  }
  return null;
}

/** Whether a state field says something: not empty, false, or an object of nothing but nulls (a healthy run's silentSince). */
function isSet(value: unknown): boolean {
  if (value === null || value === undefined || value === false) return false;
  if (typeof value === 'object') return Object.values(value).some(isSet);
  return true;
}

/**
 * When a fault strikes: once the run has measured its first second and its load agent is up, at a
 * random moment up to `withinMs` later (seeded: the moment is the fault's, not a wait for a state).
 * Gives the session, the load agent's pid, the delay chosen and the machine's load at that moment.
 */
export async function faultMoment(lab: SoakLab, run: ChildRun, owner: string, random: Random, withinMs: number): Promise<{ sessionId: number; agent: number; delay: number; loadAverage: number }> {
  await run.measured(1);
  const sessionId = run.sessionId();
  const agent = await until(() => agentPid('client', owner, sessionId, 'load', lab.instance), 'the load agent pid file', 5000, 20);
  const delay = random.between(0, withinMs);
  await new Promise((resolve) => setTimeout(resolve, delay));
  return { sessionId, agent, delay, loadAverage: machineLoad() };
}
