// Watches the lines of one live session's agents, the client's load agent and the server's sampler,
// each of which sends one a second. Past SILENT_AFTER_MS without a line the live run says since
// when that source is silent and its host is probed (shown unresponsive while it does not answer);
// a line clears both. When the client's agent is known gone by its own heartbeat rule and its host
// does not answer, the link is lost: the run service ends the run. The server's silence never ends
// the run: it goes on without server readings.

import { clockTime } from '../../../app/common/clock-time.ts';
import type { LineSource, LiveRun } from '../../../app/runs/runs.ts';
import type { HostConnections } from '../hosts/host-connections.ts';
import { SilenceWatch } from './silence-watch.ts';

/** How often the watches are looked at: a silence is seen at most this late. */
const TICK_MS = 250;

export interface RunLinkWatchOptions {
  connections: Pick<HostConnections, 'suspect' | 'heard' | 'state'>;
  hostIds: { client: number; server: number | null };
  /** The live run's `silentSince` changed. */
  onSilence: (silentSince: LiveRun['silentSince']) => void;
  /** The client's agent is gone by its own rule and its host does not answer: the run must end. */
  onClientLost: (message: string) => void;
  clock?: () => number;
}

export class RunLinkWatch {
  readonly #options: RunLinkWatchOptions;
  readonly #watches: Record<LineSource, SilenceWatch>;
  readonly #ticker: ReturnType<typeof setInterval>;
  #clientLost = false;

  constructor(options: RunLinkWatchOptions) {
    this.#options = options;
    const clock = options.clock ?? Date.now;
    this.#watches = { client: new SilenceWatch(clock), server: new SilenceWatch(clock) };
    this.#ticker = setInterval(() => this.tick(), TICK_MS);
    this.#ticker.unref?.();
  }

  /** The source's agent said hello: its lines are expected from now on. */
  started(source: LineSource): void {
    const wasSilent = this.#watches[source].silentSince !== null;
    this.#watches[source].start();
    if (wasSilent) this.#publish();
  }

  /** A line came from the source. */
  heard(source: LineSource): void {
    if (!this.#watches[source].heard()) return;
    const hostId = this.#options.hostIds[source];
    if (hostId !== null) this.#options.connections.heard(hostId);
    this.#publish();
  }

  /** The source may be quiet this much longer before its next line (the client's drain). */
  allowPause(source: LineSource, ms: number): void {
    this.#watches[source].allowPause(ms);
  }

  /** No lines are expected from the source (its step is over). */
  stopped(source: LineSource): void {
    const wasSilent = this.#watches[source].silentSince !== null;
    this.#watches[source].stop();
    if (wasSilent) this.#publish();
  }

  close(): void {
    clearInterval(this.#ticker);
  }

  /** Looks at both watches now (the ticker's work; tests call it on their own clock). */
  tick(): void {
    for (const source of ['client', 'server'] as const) {
      const silence = this.#watches[source].check();
      if (!silence) continue;
      const hostId = this.#options.hostIds[source];
      if (hostId !== null) this.#options.connections.suspect(hostId, new Date(silence.since));
      this.#publish();
    }
    const client = this.#watches.client;
    if (this.#clientLost || !client.gone()) return;
    // A host that answers has a live link: its agent is stuck, not cut off, and its own caps end it.
    if (this.#options.connections.state(this.#options.hostIds.client).unresponsiveSince === null) return;
    this.#clientLost = true;
    const silentS = Math.floor(client.silentForMs() / 100) / 10;
    this.#options.onClientLost(`client link lost at ${clockTime(client.silentSince!)}: no data from the client's agent for ${silentS} s; what was stored is kept`);
  }

  silentSince(): LiveRun['silentSince'] {
    const iso = (at: number | null) => (at === null ? null : new Date(at).toISOString());
    return { client: iso(this.#watches.client.silentSince), server: iso(this.#watches.server.silentSince) };
  }

  #publish(): void {
    this.#options.onSilence(this.silentSince());
  }
}
