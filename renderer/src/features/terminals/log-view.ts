// The log as text for xterm: a line formatted (time, level, source, message) with only its colours
// kept, the back end's backlog merged into one story, and progress lines that update in place —
// a build's "downloaded 57 files so far" rewrites its own row instead of adding rows.

import { logTopic, type LogBacklog, type LogLine } from '../../../../app/common/log-contract.ts';

const LEVEL_STYLE: Record<LogLine['level'], string> = {
  debug: '\x1b[2m',
  info: '',
  warn: '\x1b[33m',
  error: '\x1b[31m',
};

// Matching control characters is the point of these two patterns.
/* eslint-disable no-control-regex */
/** CSI sequences, OSC strings, other escapes, and C0/C1 control characters except tab and newline. */
const CONTROL = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-_]?|[\x00-\x08\x0b-\x1a\x1c-\x1f\x7f-\x9f]/g;
const SGR = /^\x1b\[[0-9;]*m$/;
/* eslint-enable no-control-regex */

/**
 * Keeps colours (SGR sequences) from command output but drops every other control sequence and
 * control character, so a line cannot move the cursor, retitle the window or rewrite earlier lines.
 */
export function sanitizeLogText(text: string): string {
  return text.replace(CONTROL, (match) => (SGR.test(match) ? match : '')).replace(/\n/g, '\r\n');
}

/** One line as xterm shows it, without its line end. */
export function formatLogLine(line: LogLine): string {
  const at = new Date(line.at);
  const time = Number.isNaN(at.getTime()) ? sanitizeLogText(line.at) : at.toTimeString().slice(0, 8); // local HH:MM:SS
  const style = LEVEL_STYLE[line.level];
  return `\x1b[2m${time}\x1b[0m ${style}${line.level.padEnd(5)} ${sanitizeLogText(line.source)}: ${sanitizeLogText(line.message)}\x1b[0m`;
}

/** The key that tells a line of the backlog from the same line arriving live. */
export function lineKey(line: LogLine): string {
  return `${line.at}\0${line.level}\0${line.source}\0${line.message}\0${line.progress ? 'p' : ''}`;
}

/** The backlog as one story in time order (each topic's progress line after its lines). */
export function backlogLines(backlog: LogBacklog): LogLine[] {
  const lines = backlog.topics.flatMap((topic) => (topic.progress ? [...topic.lines, topic.progress] : topic.lines));
  // A stable sort: lines of one moment keep their topic's order.
  return lines.map((line, index) => ({ line, index })).sort((a, b) => a.line.at.localeCompare(b.line.at) || a.index - b.index).map(({ line }) => line);
}

/**
 * Turns lines into what xterm is given. A progress line stays open (no line end) so the next
 * progress line of its topic can replace it; any other line closes it first.
 */
export class LogLineWriter {
  /** The topic whose progress line is the last row, unfinished. */
  #openProgress: string | null = null;

  /** `columns`: the terminal's width; a progress line is cut to fit so it stays on one row it can rewrite. */
  text(line: LogLine, columns: number): string {
    const topic = logTopic(line);
    const formatted = formatLogLine(line);
    if (line.progress) {
      const replace = this.#openProgress === topic;
      const start = replace ? '\r\x1b[2K' : this.#openProgress !== null ? '\r\n' : '';
      this.#openProgress = topic;
      return `${start}${fitColumns(formatted, columns - 1)}`;
    }
    const start = this.#openProgress !== null ? '\r\n' : '';
    this.#openProgress = null;
    return `${start}${formatted}\r\n`;
  }
}

/** Cuts text with SGR sequences to `columns` visible characters (a progress line must not wrap). */
function fitColumns(text: string, columns: number): string {
  let visible = 0;
  let out = '';
  // eslint-disable-next-line no-control-regex
  for (const part of text.split(/(\x1b\[[0-9;]*m)/)) {
    if (part.startsWith('\x1b[')) {
      out += part;
      continue;
    }
    const room = Math.max(0, columns - visible);
    out += part.length > room ? `${part.slice(0, Math.max(0, room - 1))}…` : part;
    visible += Math.min(part.length, room);
  }
  return `${out}\x1b[0m`;
}
