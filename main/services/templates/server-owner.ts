// Whose server a host's run dir holds, judged from one inspection: this Benchlab's deployment, one
// another live Benchlab holds (its heartbeat is fresh: that Benchlab beats it), a leftover nobody
// drives any more, or nothing. One owner per server: only the holder stops or replaces it, unless
// the user named that very deployment. Also which sessions load a server now.

import { parseTarget } from '../../../app/runs/load-profile.ts';
import { describeHolder, describeLoads, describeServer, howToStopHeld, type FrontDoor } from '../../../app/templates/server-words.ts';
import { isOwnerAlive } from '../store/process-owner.ts';
import type { RecordedDeployment, RunInspection } from './remote-server.ts';

export type Ownership =
  | { kind: 'none' }
  /** The deployment this Benchlab made (and still follows) is what runs there. */
  | { kind: 'ours' }
  | { kind: 'other'; recorded: RecordedDeployment | null; heartbeatAgeSeconds: number }
  /** Something of Benchlab's that nobody drives any more (dead, or its heartbeat stale): anyone may clean it. */
  | { kind: 'leftover'; recorded: RecordedDeployment | null };

export function ownershipOf(inspection: RunInspection, ourDeploymentId: string | null, liveAgeSeconds: number): Ownership {
  if (!inspection.present) return { kind: 'none' };
  const recorded = inspection.deployment;
  if (ourDeploymentId !== null && recorded?.id === ourDeploymentId) return { kind: 'ours' };
  const age = inspection.heartbeatAgeSeconds;
  if (inspection.alive && age !== null && age < liveAgeSeconds) return { kind: 'other', recorded, heartbeatAgeSeconds: age };
  return { kind: 'leftover', recorded };
}

/** Why a server another live Benchlab holds is left alone, with what would take it down on purpose (in the front door's terms). */
export function heldElsewhere(hostName: string, other: Extract<Ownership, { kind: 'other' }>, runs: readonly string[], action: string, frontDoor: FrontDoor = 'app'): string {
  const id = other.recorded?.id ? ` (deployment ${other.recorded.id})` : '';
  return `${hostName} runs ${describeServer(other.recorded)}${id}, ${describeHolder(other.recorded?.holder, other.heartbeatAgeSeconds)}${describeLoads(runs)}: ${action}. ${howToStopHeld(frontDoor, hostName, other.recorded?.id ?? null)}`;
}

/**
 * The sessions loading a server now, by name: running under a live owner (any process on the store),
 * aimed at its port on its host (by host entry, or by address: another process may name the host otherwise).
 */
export function sessionsLoading(
  running: ReadonlyArray<{ name: string; owner: string | null; serverHostId: number | null; target: string | null }>,
  server: { hostId: number; address: string; port: number },
): string[] {
  return running
    .filter((session) => {
      if (session.owner === null || !isOwnerAlive(session.owner) || session.target === null) return false;
      const target = parseTarget(session.target);
      if (typeof target === 'string' || target.port !== server.port) return false;
      return session.serverHostId === server.hostId || target.hostname === server.address;
    })
    .map((session) => session.name);
}
