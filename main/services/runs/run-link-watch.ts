// Watches the lines of one live session's agents, each client's load agent and the server's sampler,
// each of which sends one a second. Past SILENT_AFTER_MS without a line the live run says since
// when that source is silent (the clients: the earliest silent one, and with several each silent
// client by index) and its host is probed (shown
// unresponsive while it does not answer); a line clears both. When a client's agent is known gone
// by its own heartbeat rule and its host does not answer, that client's link is lost: the run
// service ends the run, naming it. The server's silence never ends the run: it goes on without
// server readings.

import { clockTime } from '../../../app/common/clock-time.ts';
import type { LiveRun } from '../../../app/runs/runs.ts';
import type { HostConnections } from '../hosts/host-connections.ts';
import { SilenceWatch } from './silence-watch.ts';

/** How often the watches are looked at: a silence is seen at most this late. */
const TICK_MS = 250;

export interface RunLinkWatchOptions {
  connections: Pick<HostConnections, 'suspect' | 'heard' | 'state'>;
  /** The load clients by index (their host and its name), and the server's host if sampled. */
  clients: ReadonlyArray<{ hostId: number; name: string }>;
  serverHostId: number | null;
  /** The live run's `silentSince` changed. */
  onSilence: (silentSince: LiveRun['silentSince']) => void;
  /** A client's agent is gone by its own rule and its host does not answer: the run must end. */
  onClientLost: (clientIndex: number, message: string) => void;
  clock?: () => number;
}

/** Which agent a line came from: the server's sampler, or a client's load agent by its index. */
export type LinkSource = 'server' | { client: number };

export class RunLinkWatch {
  readonly #options: RunLinkWatchOptions;
  readonly #clients: SilenceWatch[];
  readonly #server: SilenceWatch;
  readonly #lost = new Set<number>();
  readonly #ticker: ReturnType<typeof setInterval>;

  constructor(options: RunLinkWatchOptions) {
    this.#options = options;
    const clock = options.clock ?? Date.now;
    this.#clients = options.clients.map(() => new SilenceWatch(clock));
    this.#server = new SilenceWatch(clock);
    this.#ticker = setInterval(() => this.tick(), TICK_MS);
    this.#ticker.unref?.();
  }

  /** The source's agent said hello: its lines are expected from now on. */
  started(source: LinkSource): void {
    const watch = this.#watch(source);
    const wasSilent = watch.silentSince !== null;
    watch.start();
    if (wasSilent) this.#publish();
  }

  /** A line came from the source. */
  heard(source: LinkSource): void {
    if (!this.#watch(source).heard()) return;
    const hostId = this.#hostId(source);
    if (hostId !== null) this.#options.connections.heard(hostId);
    this.#publish();
  }

  /** The source may be quiet this much longer before its next line (a client's drain). */
  allowPause(source: LinkSource, ms: number): void {
    this.#watch(source).allowPause(ms);
  }

  /** No lines are expected from the source (its step is over). */
  stopped(source: LinkSource): void {
    const watch = this.#watch(source);
    const wasSilent = watch.silentSince !== null;
    watch.stop();
    if (wasSilent) this.#publish();
  }

  close(): void {
    clearInterval(this.#ticker);
  }

  /** Looks at every watch now (the ticker's work; tests call it on their own clock). */
  tick(): void {
    const sources: LinkSource[] = [...this.#clients.map((_, client) => ({ client })), 'server'];
    for (const source of sources) {
      const silence = this.#watch(source).check();
      if (!silence) continue;
      const hostId = this.#hostId(source);
      if (hostId !== null) this.#options.connections.suspect(hostId, new Date(silence.since));
      this.#publish();
    }
    for (const [index, watch] of this.#clients.entries()) {
      if (this.#lost.has(index) || !watch.gone()) continue;
      const { hostId, name } = this.#options.clients[index]!;
      // A host that answers has a live link: its agent is stuck, not cut off, and its own caps end it.
      if (this.#options.connections.state(hostId).unresponsiveSince === null) continue;
      this.#lost.add(index);
      const silentS = Math.floor(watch.silentForMs() / 100) / 10;
      const whose = this.#clients.length === 1 ? "the client's agent" : `the agent on ${name}`;
      this.#options.onClientLost(index, `client link lost at ${clockTime(watch.silentSince!)}: no data from ${whose} for ${silentS} s; what was stored is kept`);
    }
  }

  silentSince(): LiveRun['silentSince'] {
    const iso = (at: number | null) => (at === null ? null : new Date(at).toISOString());
    const silentClients = this.#clients.flatMap((watch, index) => (watch.silentSince === null ? [] : [{ index, since: watch.silentSince }]));
    const earliest = silentClients.length > 0 ? Math.min(...silentClients.map((client) => client.since)) : null;
    const silentSince: LiveRun['silentSince'] = { client: iso(earliest), server: iso(this.#server.silentSince) };
    // With several clients the banner names which are silent; one client's run reads as it always did.
    if (this.#clients.length > 1) silentSince.clients = silentClients.map((client) => ({ index: client.index, since: iso(client.since)! }));
    return silentSince;
  }

  #watch(source: LinkSource): SilenceWatch {
    return source === 'server' ? this.#server : this.#clients[source.client]!;
  }

  #hostId(source: LinkSource): number | null {
    return source === 'server' ? this.#options.serverHostId : this.#options.clients[source.client]!.hostId;
  }

  #publish(): void {
    this.#options.onSilence(this.silentSince());
  }
}
