// The agent's two pipes: NDJSON lines out on stdout, commands in on stdin. Owns the heartbeat
// watchdog: no line from Benchlab for HEARTBEAT_TIMEOUT_MS (a dead link, a Benchlab silent that
// long) or the end of stdin (Benchlab's side closed: a killed Benchlab, at once) asks the agent to
// stop, so no load outlives its driver. While Benchlab does not read (paused, busy), the lines wait
// in stdout's buffer, never blocking the agent; the last line is written only once all of them
// have gone out, so a Benchlab that reads again gets every second and the end.

import type { Readable, Writable } from 'node:stream';
import { hostNowMs } from './host-clock.ts';
import { encodeLine, HEARTBEAT_TIMEOUT_MS, LineSplitter, parseAgentCommand, type AgentCommand, type AgentLine, type EndReason } from '../app/runs/agent-protocol.ts';

/** How often the watchdog looks (Benchlab's link watch counts on it: main/services/runs/silence-watch.ts). */
const WATCHDOG_EVERY_MS = 250;

export type StopReason = Extract<EndReason, 'stopped' | 'heartbeat' | 'stdin-closed'>;

export class AgentIo {
  readonly #out: Writable;
  readonly #splitter = new LineSplitter();
  #lastHeardAt = Date.now();
  readonly #heartbeatTimeoutMs: number;
  /** When Benchlab's side was seen closed (stdin's end, a broken stdout), else null. */
  #goneAt: number | null = null;
  #watchdog: ReturnType<typeof setInterval> | null = null;
  #onStop: ((reason: StopReason) => void) | null = null;
  #stopReason: StopReason | null = null;
  #waitingForStart: ((command: Extract<AgentCommand, { type: 'start' }>) => void) | null = null;
  #start: Extract<AgentCommand, { type: 'start' }> | null = null;
  #onPing: ((id: number, arrivedMs: number) => void) | null = null;

  constructor(input: Readable, output: Writable, heartbeatTimeoutMs = HEARTBEAT_TIMEOUT_MS) {
    this.#out = output;
    this.#heartbeatTimeoutMs = heartbeatTimeoutMs;
    const gone = () => {
      this.#goneAt ??= Date.now();
      this.stop('stdin-closed');
    };
    input.setEncoding('utf8');
    input.on('data', (chunk: string) => {
      // Read first, before any parsing: a ping's answer carries the time it arrived.
      const arrivedMs = hostNowMs();
      this.#lastHeardAt = Date.now();
      for (const line of this.#splitter.push(chunk)) this.#command(line, arrivedMs);
    });
    input.on('end', gone);
    input.on('error', gone);
    // A broken stdout (EPIPE) also means Benchlab's side is gone: stop cleanly instead of crashing.
    output.on('error', gone);
    this.#watchdog = setInterval(() => this.#whenSilent(this.#lastHeardAt, () => this.stop('heartbeat')), WATCHDOG_EVERY_MS);
    this.#watchdog.unref();
  }

  send(line: AgentLine): void {
    this.#out.write(encodeLine(line));
  }

  log(level: 'debug' | 'info' | 'warn' | 'error', message: string): void {
    this.send({ type: 'log', level, message });
  }

  /** The start command (the first line Benchlab sends), or null if the link dies first. */
  waitForStart(timeoutMs: number): Promise<Extract<AgentCommand, { type: 'start' }> | null> {
    if (this.#start) return Promise.resolve(this.#start);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(null), timeoutMs);
      this.#waitingForStart = (command) => {
        clearTimeout(timer);
        resolve(command);
      };
      this.#onStop = () => {
        clearTimeout(timer);
        resolve(null);
      };
    });
  }

  /** Calls `listener` once when Benchlab says stop, goes silent, or closes stdin. */
  onStop(listener: (reason: StopReason) => void): void {
    this.#onStop = listener;
    if (this.#stopReason) listener(this.#stopReason);
  }

  /** Calls `listener` for every `ping` (the clock role), with the host's time the ping arrived at. */
  onPing(listener: (id: number, arrivedMs: number) => void): void {
    this.#onPing = listener;
  }

  get stopReason(): StopReason | null {
    return this.#stopReason;
  }

  /**
   * Writes the last line and resolves once stdout has taken it and every line before it. A Benchlab
   * that is not reading (paused, busy) is waited for while it may still be alive: until
   * HEARTBEAT_TIMEOUT_MS pass without a line from it (counted from now at the earliest); a closed
   * stdin or stdout (Benchlab gone) is waited for 1 s at most.
   */
  finish(line: AgentLine): Promise<void> {
    if (this.#watchdog) clearInterval(this.#watchdog);
    const startedAt = Date.now();
    return new Promise((resolve) => {
      const done = () => {
        clearInterval(guard);
        resolve();
      };
      const guard = setInterval(() => {
        if (this.#goneAt !== null) {
          if (Date.now() - this.#goneAt > 1000) done();
        } else this.#whenSilent(startedAt, done);
      }, WATCHDOG_EVERY_MS);
      guard.unref();
      this.#out.write(encodeLine(line), done);
    });
  }

  /**
   * Calls `then` if Benchlab has been silent past the limit (counted from `since` at the earliest).
   * Judged only once the loop has read its pipes: timers run before a loop reads them, so after a
   * stall of the agent's own (a host too busy to run it for the limit) the heartbeats Benchlab sent
   * meanwhile wait unread, and a check right then would blame Benchlab for the agent's own stall.
   */
  #whenSilent(since: number, then: () => void): void {
    const silent = () => Date.now() - Math.max(this.#lastHeardAt, since) > this.#heartbeatTimeoutMs;
    if (!silent()) return;
    setImmediate(() => {
      if (silent()) then();
    });
  }

  #command(line: string, arrivedMs: number): void {
    const parsed = parseAgentCommand(line);
    if (!parsed.ok) {
      this.log('warn', `ignored a command: ${parsed.error}`);
      return;
    }
    const command = parsed.value;
    if (command.type === 'start') {
      if (this.#start) return;
      this.#start = command;
      this.#waitingForStart?.(command);
      this.#waitingForStart = null;
    } else if (command.type === 'stop') {
      this.stop('stopped');
    } else if (command.type === 'ping') {
      this.#onPing?.(command.id, arrivedMs);
    }
  }

  /** Stops the agent's work (also what SIGTERM and SIGHUP do). Only the first reason counts. */
  stop(reason: StopReason): void {
    if (this.#stopReason) return;
    this.#stopReason = reason;
    this.#onStop?.(reason);
  }
}
