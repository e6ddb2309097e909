// The agent's two pipes: NDJSON lines out on stdout, commands in on stdin. Owns the heartbeat
// watchdog: no line from Benchlab for HEARTBEAT_TIMEOUT_MS (a dead link, a killed Benchlab) or the
// end of stdin (Benchlab's side closed) asks the agent to stop, so no load outlives its driver.

import type { Readable, Writable } from 'node:stream';
import { hostNowMs } from './host-clock.ts';
import { encodeLine, HEARTBEAT_TIMEOUT_MS, LineSplitter, parseAgentCommand, type AgentCommand, type AgentLine, type EndReason } from '../app/runs/agent-protocol.ts';

export type StopReason = Extract<EndReason, 'stopped' | 'heartbeat' | 'stdin-closed'>;

export class AgentIo {
  readonly #out: Writable;
  readonly #splitter = new LineSplitter();
  #lastHeardAt = Date.now();
  #watchdog: ReturnType<typeof setInterval> | null = null;
  #onStop: ((reason: StopReason) => void) | null = null;
  #stopReason: StopReason | null = null;
  #waitingForStart: ((command: Extract<AgentCommand, { type: 'start' }>) => void) | null = null;
  #start: Extract<AgentCommand, { type: 'start' }> | null = null;
  #onPing: ((id: number, arrivedMs: number) => void) | null = null;

  constructor(input: Readable, output: Writable, heartbeatTimeoutMs = HEARTBEAT_TIMEOUT_MS) {
    this.#out = output;
    input.setEncoding('utf8');
    input.on('data', (chunk: string) => {
      // Read first, before any parsing: a ping's answer carries the time it arrived.
      const arrivedMs = hostNowMs();
      this.#lastHeardAt = Date.now();
      for (const line of this.#splitter.push(chunk)) this.#command(line, arrivedMs);
    });
    input.on('end', () => this.stop('stdin-closed'));
    input.on('error', () => this.stop('stdin-closed'));
    // A broken stdout (EPIPE) also means Benchlab's side is gone: stop cleanly instead of crashing.
    output.on('error', () => this.stop('stdin-closed'));
    this.#watchdog = setInterval(() => {
      if (Date.now() - this.#lastHeardAt > heartbeatTimeoutMs) this.stop('heartbeat');
    }, 250);
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

  /** Writes the last line and resolves once stdout has taken it. */
  finish(line: AgentLine): Promise<void> {
    if (this.#watchdog) clearInterval(this.#watchdog);
    return new Promise((resolve) => {
      const done = () => resolve();
      // A closed stdout (Benchlab gone) must not keep the agent alive.
      const guard = setTimeout(done, 1000);
      guard.unref();
      this.#out.write(encodeLine(line), () => {
        clearTimeout(guard);
        done();
      });
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
