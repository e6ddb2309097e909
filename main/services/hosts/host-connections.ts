// Live connections to the stored hosts: connect with secrets held in memory only, publish each
// state change (`hosts.connection`), notice a dead link (SSH keepalive) and reconnect with backoff.
// Host key problems and refused credentials are never retried: they need the user. When what
// Benchlab runs on a host falls silent, the host is probed over its connection and shown
// unresponsive until it answers again — long before keepalive would give up on the link.

import type { ConnectSecrets, ConnectionStateName, HostConnection } from '../../../app/hosts/connections.ts';
import { ApiError } from '../../../app/common/errors.ts';
import { clockTime } from '../../../app/common/clock-time.ts';
import type { Host } from '../../../app/hosts/hosts.ts';
import type { EventBus } from '../event-bus.ts';
import type { Logger } from '../logger.ts';
import type { HostsRepository } from './hosts-repository.ts';
import { SshTransport, type SshOptions, type SshTarget } from './ssh-transport.ts';
import type { HostTransport } from './host-transport.ts';
import { LocalTransport } from './local-transport.ts';

const NEEDS_THE_USER = new Set(['host_key_unknown', 'host_key_changed', 'auth_failed', 'password_required', 'passphrase_required', 'invalid_args']);
const BACKOFF_MS = [1000, 2000, 4000, 8000, 15000, 30000];
/** The state's message while a first connection waits for the user to trust the host key. */
export const AWAITING_TRUST = 'first connection: check its host key fingerprint and trust it to connect';
/** A suspected host that has not answered a probe within this is shown unresponsive. */
export const PROBE_ANSWER_MS = 1000;
/** A probe that failed outright is sent again after this. */
const PROBE_AGAIN_MS = 1000;
/** What a probe runs: any answer at all proves the host and the link are there. */
const PROBE_COMMAND = 'true';

interface Entry {
  connection: HostConnection;
  transport: HostTransport | null;
  secrets: ConnectSecrets;
  retry: ReturnType<typeof setTimeout> | null;
  attempt: number;
  /** Bumped by every connect/disconnect, so a late result of an older attempt is ignored. */
  generation: number;
  presentedKey: string | null;
  /** Set while something Benchlab runs on the host is silent and the host is being probed. */
  suspicion: { since: string } | null;
}

export interface HostConnectionsOptions {
  hosts: HostsRepository;
  bus: EventBus;
  log: Logger;
  ssh?: SshOptions;
}

export class HostConnections {
  readonly #options: HostConnectionsOptions;
  readonly #entries = new Map<number, Entry>();

  constructor(options: HostConnectionsOptions) {
    this.#options = options;
  }

  list(): HostConnection[] {
    return this.#options.hosts.list().map((host) => {
      this.#ensureLocal(host);
      return this.#entry(host.id).connection;
    });
  }

  /** "This machine" needs no login: it is connected whenever it is asked for. */
  #ensureLocal(host: Host): void {
    const entry = this.#entry(host.id);
    if (host.kind !== 'local' || entry.transport) return;
    entry.generation++;
    this.#adopt(host, entry, new LocalTransport());
  }

  state(hostId: number): HostConnection {
    return this.#entry(hostId).connection;
  }

  /** The transport of a connected host, or an error saying it is not connected. */
  transportFor(hostId: number): HostTransport {
    const host = this.#options.hosts.get(hostId);
    this.#ensureLocal(host);
    const entry = this.#entry(hostId);
    if (!entry.transport || entry.connection.state !== 'connected') {
      throw new ApiError('disconnected', `${host.name} is not connected${entry.connection.message ? `: ${entry.connection.message}` : ''}`);
    }
    return entry.transport;
  }

  /** The host key fingerprint the host last presented when it was not trusted (for pinning). */
  presentedKey(hostId: number): string | null {
    return this.#entry(hostId).presentedKey;
  }

  /**
   * What Benchlab runs on the host fell silent at `since`: probe the host, and show it unresponsive
   * while the probe gets no answer. The connection itself is kept.
   */
  suspect(hostId: number, since: Date): void {
    const entry = this.#entry(hostId);
    if (entry.suspicion || !entry.transport || entry.connection.state !== 'connected') return;
    const suspicion = { since: since.toISOString() };
    entry.suspicion = suspicion;
    this.#probe(hostId, entry, suspicion);
  }

  /** What Benchlab runs on the host is heard again: it answers. */
  heard(hostId: number): void {
    const entry = this.#entries.get(hostId);
    if (entry?.suspicion) this.#answered(hostId, entry);
  }

  /** The sudo password given at connect time, kept in memory only. */
  sudoPasswordFor(hostId: number): string | undefined {
    return this.#entry(hostId).secrets.sudoPassword;
  }

  async connect(hostId: number, secrets: ConnectSecrets = {}): Promise<HostConnection> {
    const host = this.#options.hosts.get(hostId);
    const entry = this.#entry(hostId);
    this.#stopRetry(entry);
    entry.transport?.close();
    entry.transport = null;
    entry.secrets = { ...entry.secrets, ...secrets };
    entry.attempt = 0;
    const generation = ++entry.generation;
    this.#setState(entry, 'connecting', null);
    try {
      const transport = await this.#open(host, entry.secrets);
      if (generation !== entry.generation) {
        transport.close();
        return entry.connection;
      }
      this.#adopt(host, entry, transport);
      return entry.connection;
    } catch (error) {
      if (error instanceof ApiError && error.details?.fingerprint) entry.presentedKey = error.details.fingerprint;
      if (generation === entry.generation) {
        // A refused credential must not be reused by a later reconnect.
        if (error instanceof ApiError && (error.code === 'auth_failed' || error.code === 'passphrase_required')) entry.secrets = {};
        // A first connection waiting for its host key to be trusted has not failed: the dialog asks.
        if (error instanceof ApiError && error.code === 'host_key_unknown') this.#setState(entry, 'disconnected', AWAITING_TRUST);
        else this.#setState(entry, 'failed', error instanceof Error ? error.message : String(error));
      }
      throw error;
    }
  }

  disconnect(hostId: number): HostConnection {
    const entry = this.#entry(hostId);
    entry.generation++;
    this.#stopRetry(entry);
    entry.transport?.close();
    entry.transport = null;
    entry.secrets = {};
    this.#setState(entry, 'disconnected', null);
    return entry.connection;
  }

  closeAll(): void {
    for (const [hostId, entry] of this.#entries) {
      if (entry.transport || entry.retry) this.disconnect(hostId);
    }
  }

  /**
   * A new login to an SSH host, separate from its connection, with the secrets the user gave at
   * connect time: pam_limits runs again, so it shows what new logins get. The caller closes it.
   * Null for "This machine", which Benchlab drives without a login.
   */
  async openFreshLogin(hostId: number): Promise<HostTransport | null> {
    const host = this.#options.hosts.get(hostId);
    if (host.kind === 'local') return null;
    const secrets = this.#entry(hostId).secrets;
    return SshTransport.connect(this.targetOf(host), { password: secrets.password, passphrase: secrets.passphrase }, this.#options.ssh ?? {});
  }

  /** Builds the SSH target of a host, following its jump hosts (a cycle is refused). */
  targetOf(host: Host, seen: Set<number> = new Set()): SshTarget {
    if (seen.has(host.id)) throw new ApiError('invalid_args', `${host.name}: its jump hosts form a loop`);
    seen.add(host.id);
    const jump = host.jumpHostId ? this.targetOf(this.#options.hosts.get(host.jumpHostId), seen) : undefined;
    return {
      label: host.name,
      address: host.address,
      port: host.port,
      user: host.user,
      auth: host.auth,
      keyPath: host.keyPath,
      pinnedFingerprint: host.hostKeyFingerprint,
      ...(jump ? { jump } : {}),
    };
  }

  async #open(host: Host, secrets: ConnectSecrets): Promise<HostTransport> {
    if (host.kind === 'local') return new LocalTransport();
    return SshTransport.connect(this.targetOf(host), { password: secrets.password, passphrase: secrets.passphrase }, this.#options.ssh ?? {});
  }

  #adopt(host: Host, entry: Entry, transport: HostTransport): void {
    entry.transport = transport;
    entry.attempt = 0;
    this.#setState(entry, 'connected', null);
    if (transport instanceof SshTransport) {
      const generation = entry.generation;
      transport.once('close', (reason) => {
        if (generation !== entry.generation) return;
        entry.transport = null;
        this.#options.log.warn('hosts', `${host.name}: connection lost (${reason}); reconnecting`);
        this.#scheduleReconnect(host.id, entry, `connection lost: ${reason}`);
      });
    }
  }

  #scheduleReconnect(hostId: number, entry: Entry, why: string): void {
    const delay = BACKOFF_MS[Math.min(entry.attempt, BACKOFF_MS.length - 1)]!;
    entry.attempt++;
    this.#setState(entry, 'reconnecting', `${why} — next attempt in ${Math.round(delay / 1000)} s`);
    const generation = entry.generation;
    entry.retry = setTimeout(() => {
      entry.retry = null;
      if (generation !== entry.generation) return;
      let host: Host;
      try {
        host = this.#options.hosts.get(hostId);
      } catch {
        return; // removed meanwhile
      }
      this.#open(host, entry.secrets).then(
        (transport) => {
          if (generation !== entry.generation) return transport.close();
          this.#options.log.info('hosts', `${host.name}: reconnected`);
          this.#adopt(host, entry, transport);
        },
        (error: unknown) => {
          if (generation !== entry.generation) return;
          const message = error instanceof Error ? error.message : String(error);
          if (error instanceof ApiError && error.details?.fingerprint) entry.presentedKey = error.details.fingerprint;
          if (error instanceof ApiError && NEEDS_THE_USER.has(error.code)) this.#setState(entry, 'failed', message);
          else this.#scheduleReconnect(hostId, entry, message);
        },
      );
    }, delay);
    entry.retry.unref?.();
  }

  /** One probe at a time: sent, and again after a failure, until the host answers or the suspicion ends. */
  #probe(hostId: number, entry: Entry, suspicion: { since: string }): void {
    const transport = entry.transport;
    if (!transport || entry.suspicion !== suspicion) return;
    const current = () => entry.suspicion === suspicion;
    // Over a dead link the probe waits for the link (its own timeout starts only once it runs).
    const late = setTimeout(() => {
      if (current()) this.#unresponsive(hostId, entry, suspicion.since);
    }, PROBE_ANSWER_MS);
    late.unref?.();
    transport.exec(PROBE_COMMAND, { timeoutMs: 10_000 }).then(
      () => {
        clearTimeout(late);
        if (current()) this.#answered(hostId, entry);
      },
      () => {
        clearTimeout(late);
        if (!current()) return;
        this.#unresponsive(hostId, entry, suspicion.since);
        const again = setTimeout(() => this.#probe(hostId, entry, suspicion), PROBE_AGAIN_MS);
        again.unref?.();
      },
    );
  }

  #unresponsive(hostId: number, entry: Entry, since: string): void {
    if (entry.connection.unresponsiveSince !== null) return;
    this.#options.log.warn('hosts', `${this.#nameOf(hostId)}: no answer since ${clockTime(since)} (the link may be down); the connection is kept`);
    entry.connection = { ...entry.connection, unresponsiveSince: since };
    this.#options.bus.publish('hosts.connection', entry.connection);
  }

  #answered(hostId: number, entry: Entry): void {
    entry.suspicion = null;
    if (entry.connection.unresponsiveSince === null) return;
    this.#options.log.info('hosts', `${this.#nameOf(hostId)}: answers again`);
    entry.connection = { ...entry.connection, unresponsiveSince: null };
    this.#options.bus.publish('hosts.connection', entry.connection);
  }

  #nameOf(hostId: number): string {
    try {
      return this.#options.hosts.get(hostId).name;
    } catch {
      return `host ${hostId}`;
    }
  }

  #stopRetry(entry: Entry): void {
    if (entry.retry) clearTimeout(entry.retry);
    entry.retry = null;
  }

  #entry(hostId: number): Entry {
    let entry = this.#entries.get(hostId);
    if (!entry) {
      entry = {
        connection: { hostId, state: 'disconnected', message: null, since: new Date().toISOString(), unresponsiveSince: null },
        transport: null,
        secrets: {},
        retry: null,
        attempt: 0,
        generation: 0,
        presentedKey: null,
        suspicion: null,
      };
      this.#entries.set(hostId, entry);
    }
    return entry;
  }

  #setState(entry: Entry, state: ConnectionStateName, message: string | null): void {
    // A new state is a new connection (or none): a suspicion of the old one ends with it.
    entry.suspicion = null;
    entry.connection = { hostId: entry.connection.hostId, state, message, since: new Date().toISOString(), unresponsiveSince: null };
    this.#options.bus.publish('hosts.connection', entry.connection);
  }
}
