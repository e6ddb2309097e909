// Watches the lines of one live session's agents, each client's load agent and the server's sampler,
// each of which sends one a second. Past SILENT_AFTER_MS without a line the live run says since
// when that source is silent (the clients: the earliest silent one, and with several each silent
// client by index) and its host is probed (shown
// unresponsive while it does not answer); a line clears both. When a client's agent is known gone
// by its own heartbeat rule and its host does not answer, that client's link is lost: the run
// service ends the run, naming it. The server's silence never ends the run: it goes on without
// server readings. Benchlab's own stalls (its process stopped, a long GC, a machine too busy to run
// it: ticks that come late) are no agent's silence, and are remembered, so an agent that stopped by
// its heartbeat rule is said to have stopped because Benchlab was silent, not because a link fell.

import { clockTime } from '../../../app/common/clock-time.ts';
import type { LiveRun } from '../../../app/runs/runs.ts';
import type { HostConnections } from '../hosts/host-connections.ts';
import { HEARTBEAT_EVERY_MS, HEARTBEAT_TIMEOUT_MS } from '../../../app/runs/agent-protocol.ts';
import type { AgentEnd } from './remote-agent.ts';
import { SilenceWatch } from './silence-watch.ts';

/** How often the watches are looked at: a silence is seen at most this late. */
const TICK_MS = 250;
/** A tick this late means Benchlab itself did not run in between. */
const STALL_AFTER_MS = 1000;
/** Stalls are remembered this long (longer than the agent's heartbeat limit and its end's way back). */
const STALLS_KEPT_MS = 5 * 60_000;
/** Benchlab's own stalls this far back count toward an agent's silence (its limit, and its end's way back). */
const SILENCE_WINDOW_MS = HEARTBEAT_TIMEOUT_MS + 5000;

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
  readonly #clock: () => number;
  #lastTickAt: number;
  /** Benchlab's own stalls, oldest first. */
  readonly #stalls: Array<{ from: number; to: number }> = [];

  constructor(options: RunLinkWatchOptions) {
    this.#options = options;
    const clock = options.clock ?? Date.now;
    this.#clock = clock;
    this.#lastTickAt = clock();
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
    const stall = this.#noteStall();
    if (stall) for (const watch of [...this.#clients, this.#server]) watch.excuse(stall.from, stall.to);
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
      this.#options.onClientLost(index, this.#lostMessage(index, name));
    }
  }

  /**
   * Why a client's channel ended without its agent's end line, when its link fell: it was silent
   * past the rule and its host does not answer or its connection is gone (SSH keepalive gave the
   * link up first). Null otherwise.
   */
  linkLostMessage(index: number): string | null {
    const watch = this.#clients[index];
    if (!watch || watch.silentSince === null) return null;
    const { hostId, name } = this.#options.clients[index]!;
    const connection = this.#options.connections.state(hostId);
    if (connection.state === 'connected' && connection.unresponsiveSince === null) return null;
    return this.#lostMessage(index, name);
  }

  #lostMessage(index: number, name: string): string {
    const watch = this.#clients[index]!;
    const silentS = Math.floor(watch.silentForMs() / 100) / 10;
    const whose = this.#clients.length === 1 ? "the client's agent" : `the agent on ${name}`;
    return `client link lost at ${clockTime(watch.silentSince!)}: no data from ${whose} for ${silentS} s; what was stored is kept`;
  }

  /**
   * Benchlab's stalls that reach into the last `withinMs` (the one it may be coming out of right now
   * included: lines are read before the late tick that would note it).
   */
  stallsWithin(withinMs: number): Array<{ from: number; to: number }> {
    const now = this.#clock();
    const current = now - this.#lastTickAt > STALL_AFTER_MS ? [{ from: this.#lastTickAt + TICK_MS, to: now }] : [];
    return [...this.#stalls, ...current].filter((stall) => stall.to > now - withinMs);
  }

  /**
   * An agent that stopped by its heartbeat rule heard nothing from Benchlab for its limit: either
   * Benchlab itself did not run for about that long in one piece (its process stopped, a machine too
   * busy to run it at all), or the link fell. Benchlab sends a heartbeat each second whenever it
   * runs, so stalls with runs between them (a busy machine) still reach a linked agent: only one
   * stall that left no second to send in for the limit less two heartbeats makes Benchlab the silent one.
   */
  whoWasSilent(end: AgentEnd, clientName: string): AgentEnd {
    if (end.reason !== 'heartbeat' || end.message) return end;
    const stalls = this.stallsWithin(SILENCE_WINDOW_MS);
    const longestMs = Math.max(0, ...stalls.map((stall) => stall.to - stall.from));
    if (longestMs < HEARTBEAT_TIMEOUT_MS - 2 * HEARTBEAT_EVERY_MS) {
      return { reason: 'heartbeat', message: `the link to ${clientName} was lost: its agent heard nothing from Benchlab for ${HEARTBEAT_TIMEOUT_MS / 1000} s and stopped its load` };
    }
    const longestS = Math.round(longestMs / 100) / 10;
    return {
      reason: 'heartbeat',
      message:
        `Benchlab was silent: it did not run for ${longestS} s (its process stopped, or the machine too busy to run it), ` +
        `so the agent on ${clientName} heard nothing from it for ${HEARTBEAT_TIMEOUT_MS / 1000} s and stopped its load`,
    };
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

  /** The stall Benchlab comes out of, if this tick is late: from the tick that should have come to now. */
  #noteStall(): { from: number; to: number } | null {
    const now = this.#clock();
    const last = this.#lastTickAt;
    this.#lastTickAt = now;
    while (this.#stalls.length > 0 && now - this.#stalls[0]!.to > STALLS_KEPT_MS) this.#stalls.shift();
    if (now - last <= STALL_AFTER_MS) return null;
    const stall = { from: last + TICK_MS, to: now };
    this.#stalls.push(stall);
    return stall;
  }

  #publish(): void {
    this.#options.onSilence(this.silentSince());
  }
}
