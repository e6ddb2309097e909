// Notices what other Benchlab processes on the same data dir change in the store, so the app sees
// the sessions a CLI run or import adds. While someone listens to `sessions.changed`, it asks
// SQLite about once a second for `PRAGMA data_version` — which moves only when another connection
// commits, never for this connection's own writes — and, when it moved, reads the sessions' change
// mark (raised by triggers, migration 5) to publish only changes to the sessions, not every second
// of samples another process stores.

import type { EventBus } from '../event-bus.ts';
import type { Logger } from '../logger.ts';
import type { Db } from './database.ts';
import { messageOf } from '../../../app/common/errors.ts';

const POLL_INTERVAL_MS = 1000;

export interface StoreWatchOptions {
  db: Db;
  bus: EventBus;
  log: Logger;
  intervalMs?: number;
}

export class StoreWatch {
  readonly #options: StoreWatchOptions;
  readonly #readMark: () => number;
  readonly #stopWatchingListeners: () => void;
  #timer: ReturnType<typeof setInterval> | null = null;
  #dataVersion = 0;
  #sessionsMark = 0;

  constructor(options: StoreWatchOptions) {
    this.#options = options;
    const mark = options.db.prepare("SELECT version FROM store_change WHERE part = 'sessions'").pluck();
    this.#readMark = () => mark.get() as number;
    this.#takeBaseline();
    this.#stopWatchingListeners = options.bus.watchListeners('sessions.changed', (count) => (count > 0 ? this.#start() : this.#stop()));
  }

  close(): void {
    this.#stopWatchingListeners();
    this.#stop();
  }

  #start(): void {
    if (this.#timer) return;
    // What changed while nobody listened is in the listener's first load.
    this.#takeBaseline();
    this.#timer = setInterval(() => this.check(), this.#options.intervalMs ?? POLL_INTERVAL_MS);
    // A listener is no reason to keep the process alive.
    this.#timer.unref();
  }

  #stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
  }

  /** One look at the store: publishes `sessions.changed` (and says so) when another process changed the sessions since the last look. */
  check(): boolean {
    try {
      const dataVersion = this.#readDataVersion();
      if (dataVersion === this.#dataVersion) return false;
      this.#dataVersion = dataVersion;
      // The mark counts this process's own changes too: one made since the last poll goes out with
      // another process's commit, which costs the listener a reload and nothing else.
      const sessionsMark = this.#readMark();
      if (sessionsMark === this.#sessionsMark) return false;
      this.#sessionsMark = sessionsMark;
      this.#options.bus.publish('sessions.changed', {});
      return true;
    } catch (error) {
      this.#options.log.write('debug', 'store', `could not check the store for other processes' changes: ${messageOf(error)}`);
      return false;
    }
  }

  #takeBaseline(): void {
    this.#dataVersion = this.#readDataVersion();
    this.#sessionsMark = this.#readMark();
  }

  #readDataVersion(): number {
    return this.#options.db.pragma('data_version', { simple: true }) as number;
  }
}
