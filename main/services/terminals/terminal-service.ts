// Interactive terminals: owns every open shell (one per `terminal.open`), turns its output into
// `terminal.data` events and `terminal.exit`, and applies the acknowledgement backpressure of
// app/terminals/terminal.ts so a flood (`yes`) waits in the shell's pipe instead of in the UI.
// A shell lives until it is closed or ends, not as long as the view that opened it: it keeps its
// last output (scrollback) so a view that comes back attaches again and shows what it missed.
// While no view shows it (detached), nobody acknowledges, so its output is not held back.

import { TextDecoder } from 'node:util';
import { ApiError } from '../../../app/common/errors.ts';
import { SCROLLBACK_CHARS, UNACKED_LIMIT } from '../../../app/terminals/terminal.ts';
import type { EventBus } from '../event-bus.ts';
import type { HostTransport, ShellSession } from '../hosts/host-transport.ts';

/** Output waits at most this long to be merged with what follows (one frame at 60 Hz). */
export const FLUSH_MS = 16;
/** Once this much output is waiting it goes out at once, without waiting for FLUSH_MS. */
export const FLUSH_BYTES = 16 * 1024;
/** Upper bound of one `terminal.data` event, so one event stays cheap to parse and render. */
export const MAX_EVENT_BYTES = 64 * 1024;
/** A shell that does not end this long after close() is forgotten anyway (its exit is reported as null). */
const CLOSE_GRACE_MS = 3000;
/**
 * After a shell reports its exit, output read before that may still be on its way (a child
 * process's `exit` can come before its stdout is drained): wait for this long without data.
 */
const EXIT_QUIET_MS = 30;
/**
 * A paused shell that hears no acknowledgement for this long assumes its events or acks were lost
 * (a WebSocket that reconnected, events a busy socket dropped) and lets the next window through.
 * A live but slow UI is still held to one window per STALL_MS.
 */
export const STALL_MS = 5000;
/** Open shells per process: each one holds a process or an SSH channel. */
export const MAX_TERMINALS = 32;

export interface TerminalManagerOptions {
  bus: EventBus;
  /** The transport of a connected host; throws an ApiError when the host is not connected. */
  transportFor: (hostId: number) => HostTransport;
  /** Overrides STALL_MS (tests). */
  stallMs?: number;
}

/** Counters of one terminal, for tests and diagnostics. */
export interface TerminalStats {
  /** Bytes published as `terminal.data` and not yet acknowledged. */
  unacked: number;
  /** Bytes read from the shell but held back (over the limit, or waiting to be merged). */
  pending: number;
  /** True while the shell is paused by backpressure. */
  paused: boolean;
  /** Bytes published in total. */
  sent: number;
  /** The largest `unacked` ever reached. */
  maxUnacked: number;
}

interface OpenTerminal {
  readonly id: string;
  readonly hostId: number;
  readonly shell: ShellSession;
  readonly decoder: TextDecoder;
  size: { cols: number; rows: number };
  /** Output published so far, its oldest part trimmed past SCROLLBACK_CHARS. */
  scrollback: string[];
  scrollbackChars: number;
  /** The `seq` of the last `terminal.data` event. */
  seq: number;
  /** A view shows it: backpressure applies. False once its view left (`detach`), until one attaches. */
  watched: boolean;
  pending: Buffer[];
  pendingBytes: number;
  unacked: number;
  sent: number;
  maxUnacked: number;
  paused: boolean;
  flushTimer: ReturnType<typeof setTimeout> | null;
  lastFlushAt: number;
  /** Set once the shell said it ended; then only the remaining output and `terminal.exit` are left. */
  exitCode: number | null | undefined;
  exitTimer: ReturnType<typeof setTimeout> | null;
  closeTimer: ReturnType<typeof setTimeout> | null;
  stallTimer: ReturnType<typeof setTimeout> | null;
  /** Last ack, or the moment of pausing: the stall clock starts from the later one. */
  lastProgressAt: number;
}

export class TerminalManager {
  readonly #bus: EventBus;
  readonly #transportFor: (hostId: number) => HostTransport;
  readonly #stallMs: number;
  readonly #terminals = new Map<string, OpenTerminal>();
  #nextId = 1;
  #opening = 0;

  constructor(options: TerminalManagerOptions) {
    this.#bus = options.bus;
    this.#transportFor = options.transportFor;
    this.#stallMs = options.stallMs ?? STALL_MS;
  }

  /** Opens a shell on the host and returns its terminal id ('t1', 't2', …). */
  async open(hostId: number, size: { cols: number; rows: number }): Promise<string> {
    // Count shells still opening too, so a burst of clicks cannot pass the limit.
    if (this.#terminals.size + this.#opening >= MAX_TERMINALS) {
      throw new ApiError('conflict', `${MAX_TERMINALS} terminals are already open: close one first`);
    }
    const transport = this.#transportFor(hostId);
    this.#opening += 1;
    let shell: ShellSession;
    try {
      shell = await transport.openShell(size);
    } finally {
      this.#opening -= 1;
    }
    const terminal: OpenTerminal = {
      id: `t${this.#nextId++}`,
      hostId,
      shell,
      decoder: new TextDecoder('utf-8'),
      size: { ...size },
      scrollback: [],
      scrollbackChars: 0,
      seq: 0,
      watched: true,
      pending: [],
      pendingBytes: 0,
      unacked: 0,
      sent: 0,
      maxUnacked: 0,
      paused: false,
      flushTimer: null,
      lastFlushAt: 0,
      stallTimer: null,
      lastProgressAt: Date.now(),
      exitCode: undefined,
      exitTimer: null,
      closeTimer: null,
    };
    this.#terminals.set(terminal.id, terminal);
    shell.on('data', (chunk: Buffer) => this.#onData(terminal, chunk));
    shell.on('exit', (code: number | null) => this.#onExit(terminal, code));
    return terminal.id;
  }

  input(terminalId: string, data: string): void {
    const terminal = this.#get(terminalId);
    if (terminal.exitCode === undefined) terminal.shell.write(data);
  }

  resize(terminalId: string, size: { cols: number; rows: number }): void {
    const terminal = this.#get(terminalId);
    if (terminal.exitCode === undefined) {
      terminal.size = { ...size };
      terminal.shell.resize(size.cols, size.rows);
    }
  }

  /**
   * A view comes back to this shell: it gets the scrollback, and the output in flight to views that
   * are gone is forgotten (they will never acknowledge it), so a paused shell runs on.
   */
  attach(terminalId: string): { scrollback: string; seq: number } {
    const terminal = this.#get(terminalId);
    terminal.watched = true;
    this.ack(terminalId, UNACKED_LIMIT);
    return { scrollback: terminal.scrollback.join(''), seq: terminal.seq };
  }

  /** Its view left (the page was closed): until a view attaches, output goes out (and to the scrollback) without waiting for acks. */
  detach(terminalId: string): void {
    const terminal = this.#get(terminalId);
    terminal.watched = false;
    this.ack(terminalId, UNACKED_LIMIT);
    this.#resume(terminal);
  }

  /** The UI rendered `bytes` more bytes of this terminal: let more through, resume below half the limit. */
  ack(terminalId: string, bytes: number): void {
    const terminal = this.#get(terminalId);
    terminal.lastProgressAt = Date.now();
    // Never below zero, so a duplicate ack cannot lift the limit; an ack of UNACKED_LIMIT or more
    // clears whatever is outstanding (what a UI that knows it lost events can send).
    terminal.unacked = Math.max(0, terminal.unacked - bytes);
    this.#drain(terminal);
    if (terminal.paused && terminal.unacked + terminal.pendingBytes < UNACKED_LIMIT / 2) {
      terminal.paused = false;
      terminal.shell.resume();
    }
  }

  /** Ends the shell; `terminal.exit` follows when it is gone (or after a grace period if it hangs). */
  close(terminalId: string): void {
    const terminal = this.#get(terminalId);
    if (terminal.closeTimer) return;
    // Output from here on is dropped, so a paused shell may run freely to its end.
    if (terminal.flushTimer) clearTimeout(terminal.flushTimer);
    terminal.flushTimer = null;
    terminal.pending = [];
    terminal.pendingBytes = 0;
    this.#resume(terminal);
    terminal.shell.close();
    terminal.closeTimer = setTimeout(() => this.#finish(terminal, terminal.exitCode ?? null), CLOSE_GRACE_MS);
    terminal.closeTimer.unref?.();
  }

  /** Shutdown: ends every shell now and reports each one as exited. */
  closeAll(): void {
    for (const terminal of [...this.#terminals.values()]) {
      this.#resume(terminal);
      terminal.shell.close();
      this.#finish(terminal, terminal.exitCode ?? null);
    }
  }

  /** Open terminal ids, in opening order. */
  list(): string[] {
    return [...this.#terminals.keys()];
  }

  /** The open shells that are not closing, in opening order, for a view that comes back to them. */
  openTerminals(): Array<{ terminalId: string; hostId: number; size: { cols: number; rows: number } }> {
    return [...this.#terminals.values()]
      .filter((terminal) => terminal.exitCode === undefined && !terminal.closeTimer)
      .map((terminal) => ({ terminalId: terminal.id, hostId: terminal.hostId, size: { ...terminal.size } }));
  }

  stats(terminalId: string): TerminalStats {
    const terminal = this.#get(terminalId);
    return {
      unacked: terminal.unacked,
      pending: terminal.pendingBytes,
      paused: terminal.paused,
      sent: terminal.sent,
      maxUnacked: terminal.maxUnacked,
    };
  }

  #get(terminalId: string): OpenTerminal {
    const terminal = this.#terminals.get(terminalId);
    if (!terminal) throw new ApiError('not_found', `terminal ${terminalId} is not open (it may have exited)`);
    return terminal;
  }

  #onData(terminal: OpenTerminal, chunk: Buffer): void {
    // After close() nobody is listening any more: drop the rest instead of holding it.
    if (!this.#terminals.has(terminal.id) || chunk.length === 0 || terminal.closeTimer) return;
    terminal.pending.push(chunk);
    terminal.pendingBytes += chunk.length;
    if (terminal.exitCode !== undefined) {
      // Late output of an ended shell: it goes out with the final flush.
      this.#scheduleExit(terminal);
      return;
    }
    // Pause as soon as what is in flight plus what waits reaches the limit: the shell's own pipe
    // (or the SSH window) then holds the rest, and the producer blocks.
    if (terminal.watched && !terminal.paused && terminal.unacked + terminal.pendingBytes >= UNACKED_LIMIT) {
      terminal.paused = true;
      terminal.shell.pause();
      terminal.lastProgressAt = Date.now();
      this.#watchStall(terminal);
    }
    if (terminal.pendingBytes >= FLUSH_BYTES) {
      this.#drain(terminal);
    } else if (!terminal.flushTimer) {
      // Typing echo goes out at once; only output that keeps coming is merged into fewer events.
      const sinceLast = Date.now() - terminal.lastFlushAt;
      if (sinceLast >= FLUSH_MS) this.#drain(terminal);
      else terminal.flushTimer = setTimeout(() => this.#drain(terminal), FLUSH_MS - sinceLast);
    }
  }

  /** Publishes what waits, as far as the unacknowledged limit allows. */
  #drain(terminal: OpenTerminal): void {
    if (terminal.flushTimer) {
      clearTimeout(terminal.flushTimer);
      terminal.flushTimer = null;
    }
    while (terminal.pendingBytes > 0 && (!terminal.watched || terminal.unacked < UNACKED_LIMIT)) {
      const room = terminal.watched ? UNACKED_LIMIT - terminal.unacked : MAX_EVENT_BYTES;
      this.#publish(terminal, Math.min(terminal.pendingBytes, MAX_EVENT_BYTES, room));
    }
  }

  /** Sends the first `bytes` pending bytes as one event. The decoder keeps a split character for the next one. */
  #publish(terminal: OpenTerminal, bytes: number): void {
    const all = terminal.pending.length === 1 ? terminal.pending[0]! : Buffer.concat(terminal.pending);
    const head = all.subarray(0, bytes);
    const rest = all.subarray(bytes);
    terminal.pending = rest.length > 0 ? [rest] : [];
    terminal.pendingBytes = rest.length;
    const data = terminal.decoder.decode(head, { stream: true });
    if (terminal.watched) terminal.unacked += head.length;
    terminal.sent += head.length;
    terminal.maxUnacked = Math.max(terminal.maxUnacked, terminal.unacked);
    terminal.lastFlushAt = Date.now();
    this.#send(terminal, data, head.length);
  }

  /** One `terminal.data` event, kept in the scrollback too. */
  #send(terminal: OpenTerminal, data: string, bytes: number): void {
    terminal.seq += 1;
    keepScrollback(terminal, data);
    this.#bus.publish('terminal.data', { terminalId: terminal.id, data, bytes, seq: terminal.seq });
  }

  #onExit(terminal: OpenTerminal, code: number | null): void {
    if (!this.#terminals.has(terminal.id) || terminal.exitCode !== undefined) return;
    terminal.exitCode = code;
    // Let whatever the ended shell still has buffered come out; it is bounded by its pipe.
    this.#resume(terminal);
    this.#scheduleExit(terminal);
  }

  #scheduleExit(terminal: OpenTerminal): void {
    if (terminal.exitTimer) clearTimeout(terminal.exitTimer);
    terminal.exitTimer = setTimeout(() => this.#finish(terminal, terminal.exitCode ?? null), EXIT_QUIET_MS);
  }

  /** Last output (all of it: the shell is gone, nothing more can pile up), `terminal.exit`, forget. */
  #finish(terminal: OpenTerminal, code: number | null): void {
    if (this.#terminals.get(terminal.id) !== terminal) return;
    for (const timer of [terminal.flushTimer, terminal.exitTimer, terminal.closeTimer, terminal.stallTimer]) if (timer) clearTimeout(timer);
    terminal.flushTimer = terminal.exitTimer = terminal.closeTimer = terminal.stallTimer = null;
    while (terminal.pendingBytes > 0) this.#publish(terminal, Math.min(terminal.pendingBytes, MAX_EVENT_BYTES));
    const tail = terminal.decoder.decode(); // a character cut off by the end becomes U+FFFD
    if (tail) this.#send(terminal, tail, 0);
    this.#terminals.delete(terminal.id);
    terminal.shell.removeAllListeners();
    this.#bus.publish('terminal.exit', { terminalId: terminal.id, code });
  }

  /** While paused, checks that acknowledgements still arrive; see STALL_MS. */
  #watchStall(terminal: OpenTerminal): void {
    if (terminal.stallTimer) return;
    const check = () => {
      terminal.stallTimer = null;
      if (!terminal.paused || this.#terminals.get(terminal.id) !== terminal) return;
      const quiet = Date.now() - terminal.lastProgressAt;
      if (quiet < this.#stallMs) {
        terminal.stallTimer = setTimeout(check, this.#stallMs - quiet);
        return;
      }
      terminal.lastProgressAt = Date.now();
      this.ack(terminal.id, terminal.unacked);
      if (terminal.paused) this.#watchStall(terminal);
    };
    terminal.stallTimer = setTimeout(check, this.#stallMs);
  }

  #resume(terminal: OpenTerminal): void {
    if (!terminal.paused) return;
    terminal.paused = false;
    terminal.shell.resume();
  }
}

/**
 * Adds output to the scrollback; once it is a quarter over SCROLLBACK_CHARS (trimming on every
 * event of a flood would copy it each time) the oldest goes, up to a line start so no line is cut.
 */
function keepScrollback(terminal: OpenTerminal, data: string): void {
  if (data.length === 0) return;
  terminal.scrollback.push(data);
  terminal.scrollbackChars += data.length;
  if (terminal.scrollbackChars <= SCROLLBACK_CHARS * 1.25) return;
  const all = terminal.scrollback.join('');
  const cut = all.length - SCROLLBACK_CHARS;
  const lineStart = all.indexOf('\n', cut);
  const kept = lineStart === -1 ? all.slice(cut) : all.slice(lineStart + 1);
  terminal.scrollback = [kept];
  terminal.scrollbackChars = kept.length;
}
