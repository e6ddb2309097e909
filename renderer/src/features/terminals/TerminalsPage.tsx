// Terminals: an interactive shell on any stored host (one panel per "Open terminal"), and below it
// the read-only log terminal with what Benchlab itself is doing. Shells stay open when the page is
// left: coming back shows each one again, with what it printed meanwhile.

import { useEffect, useRef, useState } from 'react';
import type { Host } from '../../../../app/hosts/hosts.ts';
import { errorMessage, useApi } from '../../api-context.tsx';
import { useHosts } from '../hosts/use-hosts.ts';
import { LogTerminal } from './LogTerminal.tsx';
import { TerminalPanel } from './TerminalPanel.tsx';
import { ErrorBanner } from '../../common/Banner.tsx';
import { Page } from '../../common/Page.tsx';

interface OpenPanel {
  /** React key: the same host may have several terminals open. */
  key: number;
  hostId: number;
  /** The shell once known: one still open when the page came back, or the one this panel opened. */
  terminalId?: string;
  /** Shows `terminalId` again rather than opening a shell. */
  attach: boolean;
}

export function TerminalsPage() {
  const api = useApi();
  const { hosts, error } = useHosts();
  const [panels, setPanels] = useState<OpenPanel[]>([]);
  const [listError, setListError] = useState<string | null>(null);
  const nextKey = useRef(1);

  // The shells left open when the page was last shown (or before a reload).
  useEffect(() => {
    let current = true;
    api.terminal.list().then(
      ({ terminals }) => {
        if (!current) return;
        setPanels((shown) => {
          const known = new Set(shown.map((panel) => panel.terminalId));
          const again = terminals.filter((open) => !known.has(open.terminalId));
          return [...again.map((open) => ({ key: nextKey.current++, hostId: open.hostId, terminalId: open.terminalId, attach: true })), ...shown];
        });
      },
      (failure: unknown) => current && setListError(errorMessage(failure)),
    );
    return () => {
      current = false;
    };
  }, [api]);

  const open = (host: Host) => {
    const key = nextKey.current++;
    setPanels((current) => [...current, { key, hostId: host.id, attach: false }]);
  };
  const opened = (key: number, terminalId: string) =>
    setPanels((current) => current.map((panel) => (panel.key === key ? { ...panel, terminalId } : panel)));
  const close = (key: number) => setPanels((current) => current.filter((panel) => panel.key !== key));
  const hostName = (hostId: number) => hosts?.find((host) => host.id === hostId)?.name ?? `host ${hostId}`;

  return (
    <Page
      id="terminals"
      title="Terminals"
      hint="A shell on each host, as if you had logged in (SSH hosts must be connected first). Shells stay open when you leave this page; Close ends one. Copy with Ctrl+Shift+C, paste with Ctrl+Shift+V."
    >
      <ErrorBanner error={error ?? listError} testId="terminals-error" />
      {hosts === null ? (
        <p className="hint">Loading…</p>
      ) : hosts.length === 0 ? (
        <div className="empty" data-testid="terminals-no-hosts">
          No hosts yet. Add one on the Hosts page to open a terminal on it.
        </div>
      ) : (
        <table className="table" data-testid="terminal-hosts">
          <tbody>
            {hosts.map((host) => (
              <tr key={host.id} data-testid="terminal-host-row" data-host-name={host.name}>
                <td className="strong">{host.name}</td>
                <td className="mono">{host.kind === 'local' ? 'this machine' : `${host.user}@${host.address}:${host.port}`}</td>
                <td className="row-actions">
                  <button type="button" data-testid={`open-terminal-${host.name}`} onClick={() => open(host)}>
                    Open terminal
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <div className="terminal-panels" style={{ marginTop: 16 }}>
        {panels.map((panel) => (
          <TerminalPanel
            key={panel.key}
            hostId={panel.hostId}
            hostName={hostName(panel.hostId)}
            attachTo={panel.attach ? panel.terminalId : undefined}
            onOpened={(terminalId) => opened(panel.key, terminalId)}
            onClose={() => close(panel.key)}
          />
        ))}
      </div>
      <h2>Log</h2>
      <LogTerminal />
    </Page>
  );
}
