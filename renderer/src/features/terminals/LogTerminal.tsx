// The read-only log terminal: first the backlog the back end kept (the last lines of each deploy,
// build and run, so a panel opened later or a reloaded page still shows them), then the app's `log`
// lines as they happen, in an xterm so long output scrolls and keeps colours; progress lines update
// their row (log-view.ts). Log events carry no acknowledgement, so this view bounds its own backlog.
// Given a topic, it shows only that topic's lines (one deploy's, one build's, one run's).

import { Terminal } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';
import { useEffect, useRef } from 'react';
import { logTopic, type LogLine } from '../../../../app/common/log-contract.ts';
import { plural } from '../../../../app/common/plural.ts';
import { useApi } from '../../api-context.tsx';
import { backlogLines, lineKey, LogLineWriter } from './log-view.ts';
import { XTERM_OPTIONS, mountXterm } from './TerminalPanel.tsx';

/** Text handed to xterm but not yet parsed; past this, lines are counted and skipped, not queued. */
const MAX_BACKLOG_CHARS = 1024 * 1024;

export interface LogTerminalProps {
  height?: number | string;
  testId?: string;
  /** Only this topic's lines (app/common/log-contract.ts logTopic); all lines when absent. */
  topic?: string | undefined;
}

export function LogTerminal({ height = 220, testId = 'log-terminal', topic }: LogTerminalProps) {
  const api = useApi();
  const containerRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const terminal = new Terminal({ ...XTERM_OPTIONS, disableStdin: true, cursorBlink: false, cursorInactiveStyle: 'none' });
    const unmount = mountXterm(terminal, container);
    terminal.write('\x1b[?25l'); // no cursor: nothing is typed here
    const writer = new LogLineWriter();

    let disposed = false;
    let pending = 0;
    let skipped = 0;
    const write = (text: string) => {
      pending += text.length;
      terminal.write(text, () => {
        pending -= text.length;
        if (pending === 0 && skipped > 0) {
          const note = `[… ${plural(skipped, 'log line')} skipped: they came faster than they could be shown]`;
          skipped = 0;
          display({ at: new Date().toISOString(), level: 'warn', source: 'log', message: note });
        }
      });
    };
    const display = (line: LogLine) => {
      if (pending > MAX_BACKLOG_CHARS) skipped += 1;
      else write(writer.text(line, terminal.cols));
    };
    const show = (line: LogLine) => {
      if (topic === undefined || logTopic(line) === topic) display(line);
    };

    /** Live lines that came before the backlog did: shown after it, unless it already held them. */
    let early: LogLine[] | null = [];
    const off = api.subscribe('log', (line) => {
      if (early) early.push(line);
      else show(line);
    });
    const showEarly = (kept: LogLine[]) => {
      const seen = new Set(kept.map(lineKey));
      const live = early ?? [];
      early = null;
      kept.forEach(show);
      live.filter((line) => !seen.has(lineKey(line))).forEach(show);
    };
    api.log.backlog().then(
      (backlog) => !disposed && showEarly(backlogLines(backlog)),
      // Without the backlog the panel still follows what happens from now on.
      () => !disposed && showEarly([]),
    );

    return () => {
      disposed = true;
      off();
      unmount();
      terminal.dispose();
    };
  }, [api, topic]);

  return (
    <div
      ref={containerRef}
      data-testid={testId}
      style={{ height, background: XTERM_OPTIONS.theme?.background, borderRadius: 6, overflow: 'hidden' }}
    />
  );
}
