// Terminals: an interactive shell on any stored host (one panel per "Open terminal"), and below it
// the read-only log terminal with what Benchlab itself is doing.

import { useRef, useState } from 'react';
import type { Host } from '../../../../app/hosts/hosts.ts';
import { useHosts } from '../hosts/use-hosts.ts';
import { LogTerminal } from '../templates/LogTerminal.tsx';
import { TerminalPanel } from './TerminalPanel.tsx';
import { ErrorBanner } from '../../common/Banner.tsx';
import { Page } from '../../common/Page.tsx';

interface OpenPanel {
  /** React key: the same host may have several terminals open. */
  key: number;
  hostId: number;
  hostName: string;
}

export function TerminalsPage() {
  const { hosts, error } = useHosts();
  const [panels, setPanels] = useState<OpenPanel[]>([]);
  const nextKey = useRef(1);

  const open = (host: Host) => {
    const key = nextKey.current++;
    setPanels((current) => [...current, { key, hostId: host.id, hostName: host.name }]);
  };
  const close = (key: number) => setPanels((current) => current.filter((panel) => panel.key !== key));

  return (
    <Page
      id="terminals"
      title="Terminals"
      hint="A shell on each host, as if you had logged in (SSH hosts must be connected first). Copy with Ctrl+Shift+C, paste with Ctrl+Shift+V."
    >
      <ErrorBanner error={error} testId="terminals-error" />
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
          <TerminalPanel key={panel.key} hostId={panel.hostId} hostName={panel.hostName} onClose={() => close(panel.key)} />
        ))}
      </div>
      <h2>Log</h2>
      <LogTerminal />
    </Page>
  );
}
