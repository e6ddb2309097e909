// Notices that a source of once-a-second lines (the load agent's samples, the server sampler's
// readings) has gone quiet. Silent once nothing came for SILENT_AFTER_MS (reported once, with when
// the last line came), heard again when a line comes; an agent cut off from Benchlab is known gone
// by its own heartbeat rule after AGENT_GONE_AFTER_MS. Time in which Benchlab itself did not run is
// excused: lines could not be read then. The clock is passed in and the owner calls `check` on its
// own tick, so the rules are tested without waiting.

import { HEARTBEAT_EVERY_MS, HEARTBEAT_TIMEOUT_MS } from '../../../app/runs/agent-protocol.ts';

/** An agent sends one line a second (a sample or a server reading). */
const LINE_EVERY_MS = 1000;
/** Two missed lines: no longer jitter or a slow second, and still soon enough to act on. */
export const SILENT_AFTER_MS = 2 * LINE_EVERY_MS;
/** How often the agent's own watchdog looks at its heartbeat (agent/agent-io.ts). */
const AGENT_WATCHDOG_EVERY_MS = 250;
/**
 * The link fell at most one line period after the last line came; the agent has heard nothing from
 * Benchlab since then (heartbeats come every HEARTBEAT_EVERY_MS) and stops its load once
 * HEARTBEAT_TIMEOUT_MS have passed, seen by its watchdog's next look. Past this silence it has
 * stopped by its own rule, whether or not the link comes back.
 */
export const AGENT_GONE_AFTER_MS = Math.max(LINE_EVERY_MS, HEARTBEAT_EVERY_MS) + HEARTBEAT_TIMEOUT_MS + AGENT_WATCHDOG_EVERY_MS + 250;

export class SilenceWatch {
  readonly #clock: () => number;
  #watching = false;
  #lastHeardAt = 0;
  #pauseMs = 0;
  #silentSince: number | null = null;

  constructor(clock: () => number = Date.now) {
    this.#clock = clock;
  }

  /** Lines are expected from now on: silence counts from now. */
  start(): void {
    this.#watching = true;
    this.#lastHeardAt = this.#clock();
    this.#pauseMs = 0;
    this.#silentSince = null;
  }

  /** No lines are expected (the source ended or is between steps). */
  stop(): void {
    this.#watching = false;
    this.#pauseMs = 0;
    this.#silentSince = null;
  }

  /** A line came. True when it ends a reported silence. */
  heard(): boolean {
    this.#lastHeardAt = this.#clock();
    this.#pauseMs = 0;
    const ended = this.#silentSince !== null;
    this.#silentSince = null;
    return ended;
  }

  /**
   * Benchlab itself did not run from `fromMs` to `toMs` (stopped, a long GC, a machine too busy to
   * run it): no line could be read then, so that time is no one's silence. Moves the last line as
   * far on as the stall lasted after it.
   */
  excuse(fromMs: number, toMs: number): void {
    if (!this.#watching || this.#lastHeardAt >= toMs) return;
    this.#lastHeardAt += toMs - Math.max(fromMs, this.#lastHeardAt);
  }

  /** The source may be quiet this much longer before its next line (the drain after a window). */
  allowPause(ms: number): void {
    this.#pauseMs = ms;
  }

  /** The silence, the first time it passes the limit: since when (the last line, epoch ms). */
  check(): { since: number } | null {
    if (!this.#watching || this.#silentSince !== null) return null;
    if (this.silentForMs() <= SILENT_AFTER_MS + this.#pauseMs) return null;
    this.#silentSince = this.#lastHeardAt;
    return { since: this.#lastHeardAt };
  }

  /** When the last line came, while a silence is reported; null otherwise. */
  get silentSince(): number | null {
    return this.#silentSince;
  }

  silentForMs(): number {
    return this.#watching ? this.#clock() - this.#lastHeardAt : 0;
  }

  /** Silent long enough that an agent cut off from Benchlab has stopped by its own heartbeat rule. */
  gone(): boolean {
    return this.#watching && this.silentForMs() >= AGENT_GONE_AFTER_MS + this.#pauseMs;
  }
}
