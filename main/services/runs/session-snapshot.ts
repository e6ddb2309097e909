// What a session's hosts are at its start: reads every client's and the server's system info and
// facts (the server's with the limits of the process on the target port; a client's limits are its
// login's, which the agent gets), adds the preset Benchlab's change journal knows is applied or pending there
// (with its keys as verified: asked and in effect),
// draws the noise findings, and stores all of it with the session. The same reading, unstored, is
// the pre-flight check the Run page and the wizard show before starting.

import { findNoise, HostFacts, type NoiseFinding, type SessionHostFacts, type UnreadHost } from '../../../app/hosts/host-facts.ts';
import { collectSystemInfo } from '../hosts/system-info.ts';
import { collectReadings } from '../hosts/host-facts.ts';
import type { HostConnections } from '../hosts/host-connections.ts';
import type { Logger } from '../logger.ts';
import type { ChangesRepository } from '../presets/changes-repository.ts';
import type { HostsRepository } from '../hosts/hosts-repository.ts';
import type { SessionsRepository } from './sessions-repository.ts';
import type { SnapshotsRepository } from '../hosts/snapshots-repository.ts';
import { messageOf } from '../../../app/common/errors.ts';

export interface SessionHosts {
  /** Every load client, in the session's order (one for most sessions). */
  clientHostIds: readonly number[];
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

/** A host that could be read: its id (the row it is stored under) and its facts. */
export interface ReadHost {
  hostId: number;
  facts: HostFacts;
}

function snapshotOf(hosts: readonly ReadHost[], findings: NoiseFinding[]): SessionHostFacts {
  const clients = hosts.filter((host) => host.facts.role === 'client').map((host) => host.facts);
  const server = hosts.find((host) => host.facts.role === 'server')?.facts ?? null;
  return { client: clients[0] ?? null, clients, server, findings };
}

export class SessionSnapshots {
  readonly #options: SessionSnapshotOptions;
  constructor(options: SessionSnapshotOptions) {
    this.#options = options;
  }

  /** Reads every host now, side by side, and says what is noisy; a host that cannot be read is a finding, not an error. */
  async check(args: SessionHosts): Promise<SessionHostFacts> {
    const { hosts, findings } = await this.#readAll(args);
    return snapshotOf(hosts, findings);
  }

  /** What a session's hosts were at its start: null when it recorded none, not_found for no such session. */
  ofSession(sessionId: number): SessionHostFacts | null {
    this.#options.sessions.get(sessionId);
    return this.#options.snapshots.forSession(sessionId);
  }

  /** Reads every host and stores what they were with the session. Never throws: a snapshot must not stop a run. */
  async take(sessionId: number, args: SessionHosts): Promise<SessionHostFacts> {
    const { hosts, findings } = await this.#readAll(args);
    try {
      this.#options.snapshots.addForSession(sessionId, hosts, findings);
    } catch (error) {
      this.#options.log.warn('runs', `session ${sessionId}: the hosts' snapshot could not be stored: ${messageOf(error)}`);
    }
    for (const finding of findings) this.#options.log.warn('runs', `session ${sessionId}: ${finding.message} (${finding.evidence})`);
    return snapshotOf(hosts, findings);
  }

  /** Every host read side by side (the server first, then the clients in order), those read with their ids, and the findings. */
  async #readAll(args: SessionHosts): Promise<{ hosts: ReadHost[]; findings: NoiseFinding[] }> {
    const problems: UnreadHost[] = [];
    const read = async (role: Role, hostId: number | null): Promise<ReadHost | null> => {
      if (hostId === null) return null;
      try {
        return { hostId, facts: await this.#read(role, hostId, role === 'server' ? args.port : null, problems) };
      } catch (error) {
        problems.push({ role, ...this.#nameOf(hostId), message: messageOf(error) });
        return null;
      }
    };
    const hosts = (await Promise.all([read('server', args.serverHostId), ...args.clientHostIds.map((hostId) => read('client', hostId))])).filter((host): host is ReadHost => host !== null);
    const facts = snapshotOf(hosts, []);
    return { hosts, findings: findNoise(facts.clients, facts.server, problems) };
  }

  /** The host's name for a finding, when the host is known at all. */
  #nameOf(hostId: number): { hostName?: string } {
    try {
      return { hostName: this.#options.hosts.get(hostId).name };
    } catch {
      return {};
    }
  }

  async #read(role: Role, hostId: number, port: number | null, problems: UnreadHost[]): Promise<HostFacts> {
    const host = this.#options.hosts.get(hostId);
    const transport = this.#options.connections.transportFor(hostId);
    const [info, readings] = await Promise.all([
      collectSystemInfo(transport),
      collectReadings(transport, port).catch((error: unknown) => {
        problems.push({ role, hostName: host.name, message: messageOf(error) });
        return null;
      }),
    ]);
    const journal = this.#options.changes.unreverted(hostId);
    // One drop-in per host: the latest apply replaced what an earlier one wrote, so its keys are what is in effect.
    const effects = journal.filter((entry) => entry.status === 'applied').at(-1)?.applied.effects;
    return HostFacts.parse({
      ...info,
      role,
      hostName: host.name,
      preset: {
        applied: journal.filter((entry) => entry.status === 'applied').map((entry) => entry.applied.presetName),
        pending: journal.filter((entry) => entry.status === 'pending').map((entry) => entry.applied.presetName),
        ...(effects ? { effects } : {}),
      },
      readings,
    });
  }
}
