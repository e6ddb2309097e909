// The hosts capability's rules over the stored entries and the live connections: adding, editing
// and removing hosts (each logged), "This machine" (one entry, whoever asks), host-key pinning
// (trust on first use only, replacing a pinned key only as its own action, and only the key the
// host really presented), connecting, the system-info cache (the stored reading unless a refresh
// is asked for and the host is connected) and client→server reachability.

import { userInfo } from 'node:os';
import { ApiError } from '../../../app/common/errors.ts';
import type { ConnectSecrets, HostConnection } from '../../../app/hosts/connections.ts';
import { LOCAL_HOST_NAME, type Host } from '../../../app/hosts/hosts.ts';
import type { Reachability, SystemInfo } from '../../../app/hosts/system-info.ts';
import type { Logger } from '../logger.ts';
import type { SnapshotsRepository } from './snapshots-repository.ts';
import type { HostConnections } from './host-connections.ts';
import type { HostsRepository, ValidHostInput } from './hosts-repository.ts';
import { readSshConfigCandidates, type SshConfigImport } from './ssh-config-import.ts';
import { collectSystemInfo, measureReachability } from './system-info.ts';

export interface HostServiceOptions {
  hosts: HostsRepository;
  connections: HostConnections;
  /** Where each host's latest system info is kept between readings. */
  snapshots: Pick<SnapshotsRepository, 'latest' | 'add'>;
  log: Logger;
}

export class HostService {
  readonly #hosts: HostsRepository;
  readonly #connections: HostConnections;
  readonly #snapshots: HostServiceOptions['snapshots'];
  readonly #log: Logger;

  constructor(options: HostServiceOptions) {
    this.#hosts = options.hosts;
    this.#connections = options.connections;
    this.#snapshots = options.snapshots;
    this.#log = options.log;
  }

  list(): Host[] {
    return this.#hosts.list();
  }

  add(input: ValidHostInput): Host {
    const added = this.#hosts.add(input);
    this.#log.info('hosts', `added host "${added.name}" (${added.user}@${added.address}:${added.port})`);
    return added;
  }

  update(id: number, input: ValidHostInput): Host {
    const updated = this.#hosts.update(id, input);
    this.#log.info('hosts', `updated host "${updated.name}"`);
    return updated;
  }

  /** Drops the host's connection first, so nothing keeps using a host that is gone. */
  remove(id: number): boolean {
    const name = this.#hosts.get(id).name;
    this.#connections.disconnect(id);
    const removed = this.#hosts.remove(id);
    if (removed) this.#log.info('hosts', `removed host "${name}"`);
    return removed;
  }

  /** "This machine": added once; asking again answers the entry already there. */
  addLocal(): Host {
    const existing = this.#hosts.list().find((host) => host.kind === 'local');
    if (existing) return existing;
    const added = this.#hosts.add({ name: LOCAL_HOST_NAME, kind: 'local', address: 'localhost', port: 22, user: userInfo().username, auth: 'agent' });
    this.#log.info('hosts', `added "${LOCAL_HOST_NAME}"`);
    return added;
  }

  /** Host entry candidates from pasted text, or from ~/.ssh/config when none is given. */
  importSshConfig(text?: string): Promise<SshConfigImport> {
    return readSshConfigCandidates(text);
  }

  async connect(id: number, secrets: ConnectSecrets = {}): Promise<HostConnection> {
    const host = this.#hosts.get(id);
    const connection = await this.#connections.connect(id, secrets);
    this.#log.info('hosts', `${host.name}: connected`);
    return connection;
  }

  disconnect(id: number): HostConnection {
    return this.#connections.disconnect(id);
  }

  connections(): HostConnection[] {
    return this.#connections.list();
  }

  /** First use: pins the key the host presented when it has none pinned yet. */
  trustKey(id: number, fingerprint: string): Host {
    return this.#pin(id, fingerprint, false);
  }

  /** A changed key (reinstalled machine) is replaced only by this explicit action. */
  replaceKey(id: number, fingerprint: string): Host {
    return this.#pin(id, fingerprint, true);
  }

  /**
   * The stored system info unless `refresh` is asked for; a fresh reading (stored for next time)
   * when asked or when none is stored, and the host is connected; otherwise what is stored, if any.
   */
  async systemInfo(id: number, options: { refresh?: boolean | undefined } = {}): Promise<SystemInfo | null> {
    const stored = this.#snapshots.latest(id);
    if (stored && !options.refresh) return stored;
    if (this.#connections.state(id).state !== 'connected') return stored;
    const info = await collectSystemInfo(this.#connections.transportFor(id));
    this.#snapshots.add(id, info);
    return info;
  }

  /** Times TCP connects from one host to another's SSH port: the path a benchmark's load takes. */
  async reachability(from: number, to: number): Promise<Reachability> {
    const target = this.#hosts.get(to);
    if (target.kind === 'local') throw new ApiError('invalid_args', `to: "${LOCAL_HOST_NAME}" has no address other hosts can reach`);
    return measureReachability(this.#connections.transportFor(from), { address: target.address, port: target.port }, { from, to });
  }

  #pin(id: number, fingerprint: string, replace: boolean): Host {
    const host = this.#hosts.get(id);
    if (!replace && host.hostKeyFingerprint) {
      throw new ApiError('conflict', `${host.name} already has a pinned key; replacing it is a separate, explicit action`);
    }
    if (replace && !host.hostKeyFingerprint) throw new ApiError('conflict', `${host.name} has no pinned key to replace`);
    const presented = this.#connections.presentedKey(id);
    if (presented !== fingerprint) {
      throw new ApiError('invalid_args', `fingerprint: ${fingerprint} is not the key ${host.name} presented; connect first and check the key shown`);
    }
    const pinned = this.#hosts.pinKey(id, fingerprint);
    this.#log.info('hosts', `${host.name}: ${replace ? 'replaced the pinned host key with' : 'pinned host key'} ${fingerprint}`);
    return pinned;
  }
}
