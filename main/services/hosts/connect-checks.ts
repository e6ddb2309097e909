// The one check a host gets each time it connects: every capability that may have left something
// on a host (a server template's supervised server, a load agent) registers its part here, and the
// parts run one after another on the fresh connection. Work that needs a clean host — a deploy, a
// run's start — waits for `settled(hostId)` instead of checking again on its own.

import type { EventBus } from '../event-bus.ts';
import type { Logger } from '../logger.ts';
import { messageOf } from '../../../app/common/errors.ts';

export interface ConnectCheck {
  /** Who owns the check, for the log line when it fails (a capability name: 'templates', 'runs'). */
  readonly owner: string;
  /** What the check looks after, in words ("servers left by an earlier session"). */
  readonly what: string;
  run(hostId: number): Promise<void>;
}

export interface ConnectChecksOptions {
  bus: EventBus;
  log: Logger;
  hosts: { get(id: number): { name: string } };
  /** Whether a host is still connected, so a check cut short by a dropped link stays quiet. */
  isConnected: (hostId: number) => boolean;
}

export class ConnectChecks {
  readonly #log: Logger;
  readonly #checks: ConnectCheck[] = [];
  /** The check running after the latest connect, per host. */
  readonly #running = new Map<number, Promise<void>>();
  readonly #unsubscribe: () => void;
  readonly #hosts: ConnectChecksOptions['hosts'];
  readonly #isConnected: ConnectChecksOptions['isConnected'];

  constructor(options: ConnectChecksOptions) {
    this.#log = options.log;
    this.#hosts = options.hosts;
    this.#isConnected = options.isConnected;
    this.#unsubscribe = options.bus.subscribe('hosts.connection', (connection) => {
      if (connection.state === 'connected') this.#start(connection.hostId);
    });
  }

  register(check: ConnectCheck): void {
    this.#checks.push(check);
  }

  /** Resolves once the check of the host's latest connect has finished (at once when none runs). */
  settled(hostId: number): Promise<void> {
    return this.#running.get(hostId) ?? Promise.resolve();
  }

  /** The checks running now, by host (shutdown waits for them). */
  inProgress(): Array<{ hostId: number; settled: Promise<void> }> {
    return [...this.#running].map(([hostId, settled]) => ({ hostId, settled }));
  }

  close(): void {
    this.#unsubscribe();
  }

  #start(hostId: number): void {
    const previous = this.#running.get(hostId) ?? Promise.resolve();
    const run = previous.then(() => this.#runAll(hostId));
    const tracked = run.finally(() => {
      if (this.#running.get(hostId) === tracked) this.#running.delete(hostId);
    });
    this.#running.set(hostId, tracked);
  }

  async #runAll(hostId: number): Promise<void> {
    for (const check of this.#checks) {
      try {
        await check.run(hostId);
      } catch (error) {
        let name = `host ${hostId}`;
        try {
          name = this.#hosts.get(hostId).name;
        } catch {
          // the host was removed meanwhile; its id says enough
        }
        const message = `${name}: could not check for ${check.what}: ${messageOf(error)}`;
        // A host that disconnected again at once is no news; anything else may leave something running.
        if (this.#isConnected(hostId)) this.#log.warn(check.owner, message);
        else this.#log.write('debug', check.owner, message);
      }
    }
  }
}
