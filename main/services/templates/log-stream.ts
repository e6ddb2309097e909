// A running server's log output on its way to the log terminal: split into lines (tail's
// `==> file <==` headers name the file the following lines come from), bounded in rate so a
// chatty server cannot flood the store and the UI, and the last lines kept for a failure report.

import { plural } from '../../../app/common/plural.ts';

export interface LogStreamOptions {
  /** Lines passed on per second; the rest are counted and reported as skipped. */
  maxLinesPerSecond?: number;
  tailLines?: number;
  now?: () => number;
}

const HEADER = /^==> (.+) <==$/;
/** Log lines a failure message shows. */
const SHOWN_TAIL_LINES = 15;

/** The last log lines, as a failure message ends with them (or that there were none). */
export function tailText(lines: readonly string[]): string {
  const shown = lines.slice(-SHOWN_TAIL_LINES);
  return shown.length > 0 ? `\nLast log lines:\n${shown.join('\n')}` : '\n(The server wrote nothing to its log.)';
}

export class ServerLogStream {
  readonly #write: (line: string) => void;
  readonly #maxPerSecond: number;
  readonly #tailLines: number;
  readonly #now: () => number;
  readonly #tail: string[] = [];
  #partial = '';
  #file = '';
  #windowStart = 0;
  #inWindow = 0;
  #skipped = 0;

  constructor(write: (line: string) => void, options: LogStreamOptions = {}) {
    this.#write = write;
    this.#maxPerSecond = options.maxLinesPerSecond ?? 100;
    this.#tailLines = options.tailLines ?? 40;
    this.#now = options.now ?? Date.now;
  }

  push(chunk: string): void {
    const lines = (this.#partial + chunk).split(/\r?\n/);
    this.#partial = lines.pop() ?? '';
    for (const line of lines) this.#line(line);
  }

  /** Passes on a last line without its newline, and the count of skipped lines. */
  flush(): void {
    if (this.#partial) this.#line(this.#partial);
    this.#partial = '';
    this.#reportSkipped();
  }

  tail(): string[] {
    return [...this.#tail];
  }

  #line(raw: string): void {
    const header = HEADER.exec(raw);
    if (header) {
      this.#file = header[1] === 'server.log' ? '' : header[1]!;
      return;
    }
    if (raw.trim() === '') return; // tail separates files with blank lines
    const line = this.#file ? `[${this.#file}] ${raw}` : raw;
    this.#tail.push(line);
    if (this.#tail.length > this.#tailLines) this.#tail.shift();
    const now = this.#now();
    if (now - this.#windowStart >= 1000) {
      this.#reportSkipped();
      this.#windowStart = now;
      this.#inWindow = 0;
    }
    if (this.#inWindow >= this.#maxPerSecond) {
      this.#skipped += 1;
      return;
    }
    this.#inWindow += 1;
    this.#write(line);
  }

  #reportSkipped(): void {
    if (this.#skipped === 0) return;
    this.#write(`[… ${plural(this.#skipped, 'log line')} skipped: more than ${this.#maxPerSecond} per second]`);
    this.#skipped = 0;
  }
}
