// What both hosts are at a session's start: reads each host's system info and facts (the server's
// with the limits of the process on the target port; the client's limits are its login's, which
// the agent gets), adds the preset Benchlab's change journal knows is applied or pending there,
// draws the noise findings, and stores all of it with the session. The same reading, unstored, is
// the pre-flight check the Run page and the wizard show before starting.

import { findNoise, HostFacts, type SessionHostFacts } from '../../../app/hosts/host-facts.ts';
import { collectSystemInfo } from '../hosts/system-info.ts';
import { collectReadings } from '../hosts/host-facts.ts';
import type { HostConnections } from '../hosts/host-connections.ts';
import type { Logger } from '../logger.ts';
import type { ChangesRepository } from '../presets/changes-repository.ts';
import type { HostsRepository } from '../hosts/hosts-repository.ts';
import type { SessionsRepository } from '../sessions/sessions-repository.ts';
import type { SnapshotsRepository } from '../sessions/snapshots-repository.ts';

export interface SessionHosts {
  clientHostId: number;
  serverHostId: number | null;
  /** The target's port on the server, whose listening process's limits are read. */
  port: number | null;
}

export interface SessionSnapshotOptions {
  hosts: HostsRepository;
  connections: HostConnections;
  changes: ChangesRepository;
  snapshots: SnapshotsRepository;
  sessions: Pick<SessionsRepository, 'get'>;
  log: Logger;
}

type Role = 'client' | 'server';

export class SessionSnapshots {
  readonly #options: SessionSnapshotOptions;
  constructor(options: SessionSnapshotOptions) {
    this.#options = options;
  }

  /** Reads both hosts now and says what is noisy; a host that cannot be read is a finding, not an error. */
  async check(args: SessionHosts): Promise<SessionHostFacts> {
    const problems: Array<{ role: Role; message: string }> = [];
    const read = async (role: Role, hostId: number | null): Promise<HostFacts | null> => {
      if (hostId === null) return null;
      try {
        return await this.#read(role, hostId, role === 'server' ? args.port : null, problems);
      } catch (error) {
        problems.push({ role, message: (error as Error).message });
        return null;
      }
    };
    const [client, server] = await Promise.all([read('client', args.clientHostId), read('server', args.serverHostId)]);
    return { client, server, findings: findNoise(client, server, problems) };
  }

  /** What a session's hosts were at its start: null when it recorded none, not_found for no such session. */
  ofSession(sessionId: number): SessionHostFacts | null {
    this.#options.sessions.get(sessionId);
    return this.#options.snapshots.forSession(sessionId);
  }

  /** Reads both hosts and stores what they were with the session. Never throws: a snapshot must not stop a run. */
  async take(sessionId: number, args: SessionHosts): Promise<SessionHostFacts> {
    const snapshot = await this.check(args);
    try {
      this.#options.snapshots.addForSession(sessionId, { client: args.clientHostId, server: args.serverHostId }, snapshot);
    } catch (error) {
      this.#options.log.warn('runs', `session ${sessionId}: the hosts' snapshot could not be stored: ${(error as Error).message}`);
    }
    for (const finding of snapshot.findings) this.#options.log.warn('runs', `session ${sessionId}: ${finding.message} (${finding.evidence})`);
    return snapshot;
  }

  async #read(role: Role, hostId: number, port: number | null, problems: Array<{ role: Role; message: string }>): Promise<HostFacts> {
    const host = this.#options.hosts.get(hostId);
    const transport = this.#options.connections.transportFor(hostId);
    const [info, readings] = await Promise.all([
      collectSystemInfo(transport),
      collectReadings(transport, port).catch((error: unknown) => {
        problems.push({ role, message: (error as Error).message });
        return null;
      }),
    ]);
    const journal = this.#options.changes.unreverted(hostId);
    return HostFacts.parse({
      ...info,
      role,
      hostName: host.name,
      preset: {
        applied: journal.filter((entry) => entry.status === 'applied').map((entry) => entry.applied.presetName),
        pending: journal.filter((entry) => entry.status === 'pending').map((entry) => entry.applied.presetName),
      },
      readings,
    });
  }
}
