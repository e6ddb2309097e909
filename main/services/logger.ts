// Application log: each line is stored in the `event` table, kept in the in-memory backlog (the
// last lines of each deploy, build and run, served as `log.backlog`) and published as the `log`
// event. Progress lines (a build's downloads so far) are only kept and published, never stored.
// A line that arrives once the store has closed (a follow-up finishing after shutdown) is dropped
// with a debug note on stderr: logging never throws.

import type { LogLine } from '../../app/contract.ts';
import type { LogBacklog } from '../../app/common/log-contract.ts';
import type { EventBus } from './event-bus.ts';
import { LogBacklogBuffer } from './log-backlog.ts';
import type { EventsRepository } from './store/events-repository.ts';
import { isStoreOutOfSpace } from './store/store-errors.ts';
import { messageOf } from '../../app/common/errors.ts';

export class Logger {
  readonly #events: EventsRepository;
  readonly #bus: EventBus;
  readonly #backlog = new LogBacklogBuffer();
  constructor(events: EventsRepository, bus: EventBus) {
    this.#events = events;
    this.#bus = bus;
  }

  write(level: LogLine['level'], source: string, message: string, refs: { sessionId?: number; hostId?: number } = {}): void {
    const line: LogLine = { at: new Date().toISOString(), level, source, message };
    const notStored = this.#store(line, refs);
    if (notStored) debugNote(`${notStored}; dropped the log line [${level}] ${source}: ${message}`);
    this.#backlog.add(line);
    this.#bus.publish('log', line);
  }

  /** A progress line: replaces the topic's previous one in the log panel; the topic's next line ends it. */
  progress(source: string, message: string): void {
    const line: LogLine = { at: new Date().toISOString(), level: 'info', source, message, progress: true };
    this.#backlog.add(line);
    this.#bus.publish('log', line);
  }

  /** The last lines of each topic, for a log panel opened after they were written. */
  backlog(): LogBacklog {
    return this.#backlog.snapshot();
  }

  /** Stores the line; says why not when it could not be (the store closed, or full). */
  #store(line: LogLine, refs: { sessionId?: number; hostId?: number }): string | null {
    try {
      return this.#events.append(line, refs) ? null : 'the store is closed';
    } catch (error) {
      if (isStoreOutOfSpace(error)) return `the store is out of space (${messageOf(error)})`;
      throw error;
    }
  }

  info(source: string, message: string): void {
    this.write('info', source, message);
  }

  warn(source: string, message: string): void {
    this.write('warn', source, message);
  }

  error(source: string, message: string): void {
    this.write('error', source, message);
  }
}

/** A note for whoever reads the process's stderr, about something the log itself cannot hold. */
export function debugNote(message: string): void {
  process.stderr.write(`benchlab: debug: ${message}\n`);
}
