// One interactive shell on a host, in xterm.js: opens it with `terminal.open` (or shows again one
// still open, from its scrollback: the shell outlives the panel, only Close ends it), renders its
// `terminal.data` and acknowledges what was rendered (the back end pauses the shell when the UI
// falls behind), forwards keys, resizes with its container, copy/paste. Also owns the xterm set-up
// shared with the log terminal, including the part that keeps xterm styled under our strict CSP.

import { FitAddon } from '@xterm/addon-fit';
import { Terminal, type ITerminalOptions } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';
import { useEffect, useRef, useState } from 'react';
import type { EventPayload } from '../../../../app/contract.ts';
import { ACK_EVERY } from '../../../../app/terminals/terminal.ts';
import { errorMessage, useApi } from '../../api-context.tsx';
import { openTerminal } from '../../common/open-terminal.ts';

export const XTERM_OPTIONS: ITerminalOptions = {
  fontFamily: "ui-monospace, 'DejaVu Sans Mono', 'Liberation Mono', Menlo, Consolas, monospace",
  fontSize: 13,
  scrollback: 5000,
  theme: { background: '#11151c', foreground: '#dfe4ec', cursor: '#dfe4ec', selectionBackground: '#3d5a8a' },
};

/** Fits the terminal to its container and keeps it fitted; returns the undo. */
function keepFitted(terminal: Terminal, fit: FitAddon, container: HTMLElement): () => void {
  let frame = 0;
  const refit = () => {
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(() => {
      // A hidden container (display: none) measures 0: keep the last size rather than shrink to nothing.
      if (container.clientWidth > 0 && container.clientHeight > 0) fit.fit();
    });
  };
  const observer = new ResizeObserver(refit);
  observer.observe(container);
  if (container.clientWidth > 0 && container.clientHeight > 0) fit.fit();
  return () => {
    cancelAnimationFrame(frame);
    observer.disconnect();
  };
}

/** Opens xterm in the container, styled and fitted; returns the undo (xterm itself is disposed by the caller, right after it). */
export function mountXterm(terminal: Terminal, container: HTMLElement): () => void {
  const fit = new FitAddon();
  terminal.loadAddon(fit);
  // Its <style> elements and truecolour cells' style attributes would be refused by the CSP: opened
  // this way they go through CSSOM instead (open-terminal.ts).
  const close = openTerminal(terminal, container);
  const background = XTERM_OPTIONS.theme?.background ?? '#000';
  if (terminal.element) terminal.element.style.padding = '4px 6px';
  // xterm.css paints the viewport (padding included) plain black whatever the theme says.
  terminal.element?.querySelector<HTMLElement>('.xterm-viewport')?.style.setProperty('background-color', background);
  const unfit = keepFitted(terminal, fit, container);
  return () => {
    unfit();
    close();
  };
}

/** The size the contract accepts (TerminalSize), whatever a tiny or huge container proposes. */
function contractSize(terminal: Terminal): { cols: number; rows: number } {
  return { cols: Math.min(1000, Math.max(10, terminal.cols)), rows: Math.min(500, Math.max(2, terminal.rows)) };
}

/** Splits long input (a big paste) under the contract's 64 KiB limit, never inside a surrogate pair. */
function inputPieces(data: string, max = 16 * 1024): string[] {
  const pieces: string[] = [];
  let start = 0;
  while (data.length - start > max) {
    let end = start + max;
    const code = data.charCodeAt(end - 1);
    if (code >= 0xd800 && code <= 0xdbff) end -= 1;
    pieces.push(data.slice(start, end));
    start = end;
  }
  pieces.push(data.slice(start));
  return pieces;
}

type Status =
  | { state: 'connecting' }
  | { state: 'open'; terminalId: string }
  | { state: 'exited'; terminalId: string; code: number | null }
  | { state: 'error'; message: string };

function statusText(status: Status): string {
  switch (status.state) {
    case 'connecting':
      return 'connecting…';
    case 'open':
      return 'connected';
    case 'exited':
      return status.code === null ? 'the shell ended' : `the shell exited with code ${status.code}`;
    case 'error':
      return status.message;
  }
}

export interface TerminalPanelProps {
  hostId: number;
  /** Shown in the panel's title bar. */
  hostName: string;
  /** Called when the user closes the panel, once its shell was asked to end. */
  onClose?: (() => void) | undefined;
  /** An open shell to show again (with its scrollback) instead of opening a new one. */
  attachTo?: string | undefined;
  /** Told the id of the shell this panel opened. */
  onOpened?: ((terminalId: string) => void) | undefined;
  /** CSS height of the terminal area. */
  height?: number | string;
}

export function TerminalPanel({ hostId, hostName, onClose, attachTo, onOpened, height = 380 }: TerminalPanelProps) {
  const api = useApi();
  const containerRef = useRef<HTMLDivElement>(null);
  const [status, setStatus] = useState<Status>({ state: 'connecting' });
  const onOpenedRef = useRef(onOpened);
  useEffect(() => {
    onOpenedRef.current = onOpened;
  }, [onOpened]);

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const terminal = new Terminal(XTERM_OPTIONS);
    const unmount = mountXterm(terminal, container);

    let disposed = false;
    let terminalId: string | null = null;
    let ended = false;
    /** Output and exits that arrived before `terminal.open` answered: the shell may speak first. */
    let early: EventPayload<'terminal.data'>[] = [];
    const earlyExits = new Map<string, number | null>();
    let queuedInput = '';
    let rendered = 0;
    let acked = 0;
    let writesInFlight = 0;
    let sentSize = contractSize(terminal);
    let resizeTimer: ReturnType<typeof setTimeout> | undefined;

    const ack = () => {
      if (terminalId === null || ended || rendered === acked) return;
      const bytes = rendered - acked;
      acked = rendered;
      // Fails only when the shell just ended; the exit event tells the user.
      api.terminal.ack({ terminalId, bytes }).catch(() => undefined);
    };
    const show = (event: EventPayload<'terminal.data'>) => {
      writesInFlight += 1;
      // xterm calls back once the chunk is parsed: acknowledging then is what keeps the UI in charge.
      terminal.write(event.data, () => {
        writesInFlight -= 1;
        rendered += event.bytes;
        if (rendered - acked >= ACK_EVERY || writesInFlight === 0) ack();
      });
    };
    const exited = (id: string, code: number | null) => {
      ended = true;
      setStatus({ state: 'exited', terminalId: id, code });
      terminal.write(`\r\n\x1b[2m[${code === null ? 'the shell ended' : `exited with code ${code}`}]\x1b[0m\r\n`);
    };
    const sendInput = (data: string) => {
      if (terminalId === null || ended) return;
      for (const piece of inputPieces(data)) {
        api.terminal.input({ terminalId, data: piece }).catch((error: unknown) => {
          if (!disposed && !ended) setStatus({ state: 'error', message: errorMessage(error) });
        });
      }
    };
    const sendSize = () => {
      const size = contractSize(terminal);
      if (terminalId === null || ended || (size.cols === sentSize.cols && size.rows === sentSize.rows)) return;
      sentSize = size;
      api.terminal.resize({ terminalId, size }).catch(() => undefined);
    };

    const offData = api.subscribe('terminal.data', (event) => {
      if (disposed) return;
      if (terminalId === null) early.push(event);
      else if (event.terminalId === terminalId && !ended) show(event);
    });
    const offExit = api.subscribe('terminal.exit', (event) => {
      if (disposed) return;
      if (terminalId === null) earlyExits.set(event.terminalId, event.code);
      else if (event.terminalId === terminalId && !ended) exited(event.terminalId, event.code);
    });

    const onData = terminal.onData((data) => {
      if (terminalId === null) queuedInput = (queuedInput + data).slice(-4096); // typed while connecting
      else sendInput(data);
    });
    // Only changes are sent, settled for a moment: a window drag must not become a storm of resizes.
    const onResize = terminal.onResize(() => {
      clearTimeout(resizeTimer);
      resizeTimer = setTimeout(sendSize, 120);
    });

    let pasteSeen = false;
    const onPaste = () => (pasteSeen = true);
    container.addEventListener('paste', onPaste, true);
    terminal.attachCustomKeyEventHandler((event) => {
      const combo = event.ctrlKey && event.shiftKey && !event.altKey && !event.metaKey;
      if (combo && event.code === 'KeyC') {
        if (event.type === 'keydown' && terminal.hasSelection()) {
          // Fires xterm's own copy handler (the selection's text) inside the key press, so no permission is needed.
          if (!document.execCommand('copy')) void navigator.clipboard?.writeText(terminal.getSelection()).catch(() => undefined);
        }
        event.preventDefault(); // Chromium's Ctrl+Shift+C would open the element inspector
        return false;
      }
      if (combo && event.code === 'KeyV') {
        if (event.type === 'keydown') {
          // The browser pastes on its own (a `paste` event xterm handles); where nothing arrives
          // (an Electron window without an Edit menu), read the clipboard instead.
          pasteSeen = false;
          setTimeout(() => {
            if (!pasteSeen && !disposed) {
              navigator.clipboard
                ?.readText()
                .then((text) => text && terminal.paste(text))
                .catch(() => undefined);
            }
          }, 80);
        }
        return false; // xterm must not send ^V
      }
      return true;
    });

    /** The shell is ours from here: what it said before (newer than `afterSeq`) is shown, typing goes through. */
    const connected = (id: string, afterSeq: number) => {
      terminalId = id;
      setStatus({ state: 'open', terminalId: id });
      const before = early.filter((event) => event.terminalId === id && event.seq > afterSeq);
      early = [];
      before.forEach(show);
      if (earlyExits.has(id)) return exited(id, earlyExits.get(id) ?? null);
      earlyExits.clear();
      if (queuedInput) sendInput(queuedInput);
      queuedInput = '';
      sendSize(); // the container may have changed size while the shell was opening
      terminal.focus();
    };
    const failed = (error: unknown) => {
      if (disposed) return;
      early = [];
      setStatus({ state: 'error', message: errorMessage(error) });
    };
    if (attachTo !== undefined) {
      // The shell kept running while no panel showed it: its scrollback first, then what follows.
      api.terminal.attach({ terminalId: attachTo }).then(({ scrollback, seq }) => {
        if (disposed) return;
        terminal.write(scrollback);
        sentSize = { cols: 0, rows: 0 }; // its size is the last panel's: send this one's
        connected(attachTo, seq);
      }, failed);
    } else {
      api.terminal.open({ hostId, size: sentSize }).then(({ terminalId: id }) => {
        if (disposed) {
          // Unmounted while opening: no panel knows this shell, so nobody could come back to it.
          api.terminal.close({ terminalId: id }).catch(() => undefined);
          return;
        }
        onOpenedRef.current?.(id);
        connected(id, 0);
      }, failed);
    }

    return () => {
      disposed = true;
      clearTimeout(resizeTimer);
      offData();
      offExit();
      onData.dispose();
      onResize.dispose();
      container.removeEventListener('paste', onPaste, true);
      // The shell stays open (the page may come back to it); only Close ends it. Nobody shows it
      // now, so it need not wait for acknowledgements.
      if (terminalId !== null && !ended) api.terminal.detach({ terminalId }).catch(() => undefined);
      unmount();
      terminal.dispose();
    };
  }, [api, hostId, attachTo]);

  const terminalId = status.state === 'open' || status.state === 'exited' ? status.terminalId : undefined;
  const close = () => {
    if (status.state === 'open') api.terminal.close({ terminalId: status.terminalId }).catch(() => undefined);
    onClose?.();
  };
  return (
    <section className="card terminal-panel" data-testid="terminal-panel" data-host-name={hostName}>
      <header className="page-header">
        <h2>
          {hostName}
          {terminalId && <span className="muted mono"> · {terminalId}</span>}
        </h2>
        <div className="actions">
          <span
            data-testid="terminal-status"
            data-state={status.state}
            role={status.state === 'error' ? 'alert' : 'status'}
            className={status.state === 'error' ? 'field-error' : 'muted'}
          >
            {statusText(status)}
          </span>
          {onClose && (
            <button type="button" data-testid="terminal-close" onClick={close}>
              Close
            </button>
          )}
        </div>
      </header>
      <div
        ref={containerRef}
        data-testid="terminal"
        data-terminal-id={terminalId}
        style={{ height, background: XTERM_OPTIONS.theme?.background, borderRadius: 6, overflow: 'hidden' }}
      />
    </section>
  );
}
