// The read-only log terminal: the app's `log` lines as they happen (and, in later steps, the output
// of the commands Benchlab runs on hosts), in an xterm so long output scrolls and keeps colours.
// Log events carry no acknowledgement, so this view bounds its own backlog instead.

import { Terminal } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';
import { useEffect, useRef } from 'react';
import type { LogLine } from '../../../../app/contract.ts';
import { useApi } from '../../api-context.tsx';
import { XTERM_OPTIONS, mountXterm } from '../terminals/TerminalPanel.tsx';

/** Text handed to xterm but not yet parsed; past this, lines are counted and skipped, not queued. */
const MAX_BACKLOG_CHARS = 1024 * 1024;

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

export function formatLogLine(line: LogLine): string {
  const at = new Date(line.at);
  const time = Number.isNaN(at.getTime()) ? sanitizeLogText(line.at) : at.toTimeString().slice(0, 8); // local HH:MM:SS
  const style = LEVEL_STYLE[line.level];
  return `\x1b[2m${time}\x1b[0m ${style}${line.level.padEnd(5)} ${sanitizeLogText(line.source)}: ${sanitizeLogText(line.message)}\x1b[0m\r\n`;
}

export function LogTerminal({ height = 220 }: { height?: number | string }) {
  const api = useApi();
  const containerRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const terminal = new Terminal({ ...XTERM_OPTIONS, disableStdin: true, cursorBlink: false, cursorInactiveStyle: 'none' });
    const unmount = mountXterm(terminal, container);
    terminal.write('\x1b[?25l'); // no cursor: nothing is typed here

    let backlog = 0;
    let skipped = 0;
    const write = (text: string) => {
      backlog += text.length;
      terminal.write(text, () => {
        backlog -= text.length;
        if (backlog === 0 && skipped > 0) {
          const note = `\x1b[33m[… ${skipped} log line${skipped === 1 ? '' : 's'} skipped: they came faster than they could be shown]\x1b[0m\r\n`;
          skipped = 0;
          write(note);
        }
      });
    };
    const off = api.subscribe('log', (line) => {
      if (backlog > MAX_BACKLOG_CHARS) skipped += 1;
      else write(formatLogLine(line));
    });

    return () => {
      off();
      unmount();
      terminal.dispose();
    };
  }, [api]);

  return (
    <div
      ref={containerRef}
      data-testid="log-terminal"
      style={{ height, background: XTERM_OPTIONS.theme?.background, borderRadius: 6, overflow: 'hidden' }}
    />
  );
}
