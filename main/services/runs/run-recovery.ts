// What a Benchlab that died left behind, and who may clean it. Its `running` runs and sessions are
// ended at their last stored second (runs summarized from the seconds that were stored, sessions
// marked interrupted); its agents still running on a host are stopped by the connect check. What
// another live Benchlab process on the same store runs (the app and a CLI may share it) is theirs
// and left alone. The owner of a data dir's agents is the prefix of their pid files.

import { createHash } from 'node:crypto';
import { plural } from '../../../app/common/plural.ts';
import { storedSecondsEndMs } from '../../../app/runs/run-second.ts';
import { summarizeRun, summaryRulesOf } from '../../../app/runs/summarize-run.ts';
import type { HostConnections } from '../hosts/host-connections.ts';
import type { HostsRepository } from '../hosts/hosts-repository.ts';
import type { Logger } from '../logger.ts';
import type { SessionsRepository } from './sessions-repository.ts';
import { isOwnerAlive } from '../store/process-owner.ts';
import { cleanLeftoverAgents } from './agent-host.ts';
import type { RunsRepository } from './runs-repository.ts';
import type { SamplesRepository } from './samples-repository.ts';

/** The pid-file prefix of one data dir's agents: a crash leftover is only ever cleaned by its own Benchlab. */
export function agentOwner(databaseFile: string): string {
  return `bl${createHash('sha256').update(databaseFile).digest('hex').slice(0, 10)}`;
}

/** Whether a stored owner token names a process that still runs (null: a row from before owners were kept). */
function ownedByLiveProcess(owner: string | null): boolean {
  return owner !== null && isOwnerAlive(owner);
}

/** Ends what a Benchlab that died left `running`: its runs summarized from their stored seconds, its sessions interrupted, all ended at their last stored second. */
export function recoverInterrupted(store: { runs: RunsRepository; samples: SamplesRepository; sessions: SessionsRepository; log: Logger }): void {
  const { runs, samples, sessions, log } = store;
  for (const run of runs.running()) {
    if (ownedByLiveProcess(run.owner)) continue;
    let profile: unknown = null;
    try {
      profile = sessions.get(run.sessionId).config.profile;
    } catch {
      // the session is gone; the run goes with it
    }
    const seconds = samples.forRun(run.id);
    const { summary, histogram } = summarizeRun(seconds, summaryRulesOf(profile, run.step));
    // It ended when its last stored second did (or when it started, if none was stored), not now.
    const startedAtMs = run.startedAt === null ? null : Date.parse(run.startedAt);
    const endedAtMs = storedSecondsEndMs(seconds, { startedAtMs, warmupS: Number(run.step.warmupS) || 0 }) ?? startedAtMs;
    runs.finish(run.id, 'interrupted', { summary, histogram }, endedAtMs === null ? undefined : new Date(endedAtMs));
  }
  const interrupted = sessions.running().filter((session) => !ownedByLiveProcess(session.owner)).map((session) => session.id);
  sessions.interrupt(interrupted);
  if (interrupted.length > 0) log.warn('runs', `session${interrupted.length === 1 ? '' : 's'} ${interrupted.join(', ')} ended without Benchlab (killed or crashed): marked interrupted, with what was stored`);
}

/** The connect check's part for runs: stops the agents an earlier Benchlab of this data dir left running on the host. */
export async function cleanLeftovers(
  hostId: number,
  owner: string,
  deps: { hosts: HostsRepository; connections: Pick<HostConnections, 'transportFor'>; sessions: SessionsRepository; log: Logger },
): Promise<void> {
  const host = deps.hosts.get(hostId);
  const transport = deps.connections.transportFor(hostId);
  // The agents of a session running under a live process (this one or another on the same store) are not leftovers.
  const live = deps.sessions.running().filter((session) => ownedByLiveProcess(session.owner));
  const killed = await cleanLeftoverAgents(transport, owner, live.map((session) => session.id));
  if (killed.length > 0) deps.log.warn('runs', `${host.name}: stopped ${plural(killed.length, 'agent')} an earlier Benchlab left running (pid ${killed.join(', ')})`);
}
