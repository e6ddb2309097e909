// Hosts: the machines Benchlab drives. Store and edit entries, connect them (with host key
// checking), read their system info, and check that the client reaches the server.

import { Fragment, useState } from 'react';
import { clockTime } from '../../../../app/common/clock-time.ts';
import type { HostConnection } from '../../../../app/hosts/connections.ts';
import type { Host, HostInput } from '../../../../app/hosts/hosts.ts';
import type { Reachability } from '../../../../app/hosts/system-info.ts';
import { errorMessage, useApi } from '../../api-context.tsx';
import { ErrorBanner } from '../../common/Banner.tsx';
import { Page } from '../../common/Page.tsx';
import { TableHead } from '../../common/TableHead.tsx';
import { useHostConnections } from './use-host-connections.ts';
import { useHosts } from './use-hosts.ts';
import { ConnectDialog } from './ConnectDialog.tsx';
import { HostForm } from './HostForm.tsx';
import { ImportSshConfig } from './ImportSshConfig.tsx';
import { SystemInfoPanel } from './SystemInfoPanel.tsx';
import { EntryOptions } from '../../common/EntryOptions.tsx';
import { useRequest } from '../../common/use-request.ts';

type Panel = { mode: 'closed' } | { mode: 'add' } | { mode: 'edit'; host: Host } | { mode: 'connect'; host: Host } | { mode: 'import' };

const STATE_LABELS: Record<HostConnection['state'], string> = {
  disconnected: 'not connected',
  connecting: 'connecting…',
  connected: 'connected',
  reconnecting: 'reconnecting…',
  failed: 'failed',
};

function baseName(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}

/** Enough of a fingerprint to recognise it in a table; the full one is in the tooltip and dialogs. */
function shortFingerprint(fingerprint: string): string {
  return `${fingerprint.slice(0, 14)}…${fingerprint.slice(-6)}`;
}

function ReachabilityCheck({ hosts, connections }: { hosts: Host[]; connections: ReadonlyMap<number, HostConnection> }) {
  const api = useApi();
  const connected = hosts.filter((host) => connections.get(host.id)?.state === 'connected');
  const [from, setFrom] = useState<number | null>(null);
  const [to, setTo] = useState<number | null>(null);
  const { busy, answer: result, error, send } = useRequest<Reachability>();
  if (connected.length < 1 || hosts.filter((host) => host.kind === 'ssh').length < 2) return null;
  const fromId = from ?? connected[0]!.id;
  const toId = to ?? hosts.find((host) => host.kind === 'ssh' && host.id !== fromId)?.id ?? null;
  const check = () => {
    if (toId !== null) send(() => api.hosts.reachability({ from: fromId, to: toId }));
  };
  return (
    <div className="card" data-testid="reachability">
      <h2>Client → server reachability</h2>
      <div className="actions">
        <select value={fromId} onChange={(event) => setFrom(Number(event.target.value))} aria-label="from">
          <EntryOptions entries={connected} />
        </select>
        <span>→</span>
        <select value={toId ?? ''} onChange={(event) => setTo(Number(event.target.value))} aria-label="to">
          <EntryOptions entries={hosts.filter((host) => host.kind === 'ssh' && host.id !== fromId)} />
        </select>
        <button type="button" onClick={check} disabled={busy || toId === null} data-testid="reachability-check">
          {busy ? 'Checking…' : 'Check'}
        </button>
        {result && (
          <span data-testid="reachability-result">
            {result.reachable ? `reachable, RTT ${result.rttMs?.toFixed(2)} ms` : `not reachable: ${result.message ?? ''}`}
          </span>
        )}
      </div>
      <ErrorBanner error={error} />
    </div>
  );
}

export function HostsPage() {
  const api = useApi();
  const connections = useHostConnections();
  const { hosts, error, setError, reload } = useHosts();
  const [panel, setPanel] = useState<Panel>({ mode: 'closed' });
  const [confirmRemove, setConfirmRemove] = useState<number | null>(null);
  const [expanded, setExpanded] = useState<number | null>(null);

  const act = async (work: () => Promise<unknown>) => {
    try {
      await work();
      reload();
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };

  const save = async (input: HostInput) => {
    if (panel.mode === 'edit') await api.hosts.update({ id: panel.host.id, host: input });
    else await api.hosts.add(input);
    setPanel({ mode: 'closed' });
    reload();
  };

  const closePanel = () => {
    setPanel({ mode: 'closed' });
    reload();
  };

  return (
    <Page
      id="hosts"
      title="Hosts"
      actions={
        panel.mode === 'closed' && (
          <div className="actions">
            <button type="button" data-testid="host-import" onClick={() => setPanel({ mode: 'import' })}>
              Import ~/.ssh/config
            </button>
            {!hosts?.some((host) => host.kind === 'local') && (
              <button type="button" data-testid="host-add-local" onClick={() => void act(() => api.hosts.addLocal())}>
                Add this machine
              </button>
            )}
            <button className="primary" type="button" data-testid="host-add" onClick={() => setPanel({ mode: 'add' })}>
              Add host
            </button>
          </div>
        )
      }
      hint="The machines Benchlab drives: a load client and a server under test. Entries are stored on this computer; passwords never are."
    >
      <ErrorBanner error={error} testId="hosts-error" />
      {(panel.mode === 'add' || panel.mode === 'edit') && (
        <HostForm
          key={panel.mode === 'edit' ? panel.host.id : 'new'}
          host={panel.mode === 'edit' ? panel.host : null}
          hosts={hosts ?? []}
          onSave={save}
          onCancel={() => setPanel({ mode: 'closed' })}
        />
      )}
      {panel.mode === 'connect' && <ConnectDialog host={panel.host} onDone={closePanel} />}
      {panel.mode === 'import' && <ImportSshConfig existing={hosts ?? []} onDone={closePanel} />}
      {hosts === null ? (
        <p className="hint">Loading…</p>
      ) : hosts.length === 0 ? (
        <div className="empty" data-testid="hosts-empty">
          No hosts yet. Add the machine that will generate load and the one that will serve it, or import them from
          ~/.ssh/config.
        </div>
      ) : (
        <table className="table" data-testid="hosts-table">
          <TableHead columns={['Name', 'Address', 'User', 'Auth', 'Host key', 'Connection', '']} />
          <tbody>
            {hosts.map((host) => {
              const state = connections.get(host.id);
              const isConnected = state?.state === 'connected';
              const jump = host.jumpHostId ? hosts.find((other) => other.id === host.jumpHostId) : undefined;
              return (
                <Fragment key={host.id}>
                  <tr data-testid="host-row" data-host-name={host.name}>
                    <td className="strong">
                      <button type="button" className="link" onClick={() => setExpanded(expanded === host.id ? null : host.id)} aria-expanded={expanded === host.id}>
                        {expanded === host.id ? '▾' : '▸'} {host.name}
                      </button>
                    </td>
                    <td className="mono">
                      {host.kind === 'local' ? 'this machine' : `${host.address}:${host.port}`}
                      {jump && <div className="muted">via {jump.name}</div>}
                    </td>
                    <td className="mono">{host.user}</td>
                    <td title={host.keyPath}>{host.kind === 'local' ? '—' : host.auth === 'key' ? `key ${baseName(host.keyPath ?? '')}` : host.auth}</td>
                    <td className="mono" title={host.hostKeyFingerprint ?? undefined}>
                      {host.kind === 'local' ? '—' : host.hostKeyFingerprint ? shortFingerprint(host.hostKeyFingerprint) : <span className="muted">not pinned yet</span>}
                    </td>
                    <td data-testid="host-state" title={state?.message ?? ''}>
                      <span className={`badge ${state?.state ?? 'disconnected'}`}>{STATE_LABELS[state?.state ?? 'disconnected']}</span>
                      {state?.unresponsiveSince && (
                        <>
                          {' '}
                          <span className="badge unresponsive" data-testid="host-unresponsive">
                            unresponsive
                          </span>
                          <div className="state-message">no answer since {clockTime(state.unresponsiveSince)}; the connection is kept until the host answers or SSH gives it up</div>
                        </>
                      )}
                      {state?.message && state.state !== 'connected' && <div className="state-message">{state.message}</div>}
                    </td>
                    <td className="row-actions">
                      {confirmRemove === host.id ? (
                        <>
                          <span>Remove {host.name}?</span>
                          <button type="button" className="danger" data-testid="host-remove-confirm" onClick={() => void act(() => api.hosts.remove({ id: host.id })).then(() => setConfirmRemove(null))}>
                            Remove
                          </button>
                          <button type="button" onClick={() => setConfirmRemove(null)}>
                            Keep
                          </button>
                        </>
                      ) : (
                        <>
                          {isConnected || state?.state === 'reconnecting' ? (
                            <button type="button" data-testid="host-disconnect" onClick={() => void act(() => api.hosts.disconnect({ id: host.id }))}>
                              Disconnect
                            </button>
                          ) : (
                            <button type="button" className="primary" data-testid="host-connect" onClick={() => setPanel({ mode: 'connect', host })}>
                              Connect
                            </button>
                          )}
                          {host.kind === 'ssh' && (
                            <button type="button" data-testid="host-edit" onClick={() => setPanel({ mode: 'edit', host })}>
                              Edit
                            </button>
                          )}
                          <button type="button" data-testid="host-remove" onClick={() => setConfirmRemove(host.id)}>
                            Remove
                          </button>
                        </>
                      )}
                    </td>
                  </tr>
                  {expanded === host.id && (
                    <tr className="details-row">
                      <td colSpan={7}>
                        <SystemInfoPanel hostId={host.id} connected={isConnected} />
                      </td>
                    </tr>
                  )}
                </Fragment>
              );
            })}
          </tbody>
        </table>
      )}
      {hosts && <ReachabilityCheck hosts={hosts} connections={connections} />}
    </Page>
  );
}
