// Wizard step 1: the client host (generates load) and the server host (runs the template), each
// picked from the stored hosts or added here, and tested: connected, then the client reaching the
// server with its round-trip time.

import { useState } from 'react';
import type { HostConnection } from '../../../../app/hosts/connections.ts';
import type { Host, HostInput } from '../../../../app/hosts/hosts.ts';
import type { Reachability } from '../../../../app/hosts/system-info.ts';
import { errorMessage, useApi } from '../../api-context.tsx';
import { ConnectDialog } from '../hosts/ConnectDialog.tsx';
import { HostForm } from '../hosts/HostForm.tsx';
import { FormField } from '../../common/FormField.tsx';
import type { WizardDraft } from './wizard-draft.ts';

type Role = 'client' | 'server';
const ROLES: Array<{ role: Role; label: string; hint: string }> = [
  { role: 'client', label: 'Client host', hint: 'runs the load agent' },
  { role: 'server', label: 'Server host', hint: 'runs the server under test' },
];

export function isConnected(host: Host | undefined, connections: ReadonlyMap<number, HostConnection>): boolean {
  return host !== undefined && (host.kind === 'local' || connections.get(host.id)?.state === 'connected');
}

export function HostsStep(props: {
  draft: WizardDraft;
  errors: Record<string, string>;
  hosts: Host[];
  connections: ReadonlyMap<number, HostConnection>;
  onChange: (change: Partial<WizardDraft>) => void;
  onHostsChanged: () => void;
}) {
  const { draft, hosts, connections } = props;
  const api = useApi();
  const [adding, setAdding] = useState<Role | null>(null);
  const [connecting, setConnecting] = useState<Host | null>(null);
  // The last check, kept with the pair of hosts it was for: another pair shows nothing.
  const [checked, setChecked] = useState<{ pair: string; result: Reachability | string } | null>(null);
  const idOf = (role: Role) => (role === 'client' ? draft.clientHostId : draft.serverHostId);
  const hostOf = (role: Role) => hosts.find((host) => host.id === idOf(role));
  const client = hostOf('client');
  const server = hostOf('server');
  const bothConnected = isConnected(client, connections) && isConnected(server, connections);

  const pair = `${draft.clientHostId}->${draft.serverHostId}`;
  const reach = checked?.pair === pair ? checked.result : null;
  const setReach = (result: Reachability | string) => setChecked({ pair, result });

  const save = async (input: HostInput) => {
    const host = await api.hosts.add(input);
    props.onHostsChanged();
    props.onChange(adding === 'client' ? { clientHostId: host.id } : { serverHostId: host.id });
    setAdding(null);
    setConnecting(host);
  };

  const testReach = async () => {
    if (!client || !server) return;
    setReach('checking');
    try {
      setReach(await api.hosts.reachability({ from: client.id, to: server.id }));
    } catch (failure) {
      setReach(errorMessage(failure));
    }
  };

  return (
    <div className="wizard-step" data-testid="wizard-hosts">
      <p className="hint">Benchlab drives two machines over SSH: one generates the load, the other serves it. The same machine can be both, but then they share its cores.</p>
      {adding && <HostForm key={adding} host={null} hosts={hosts} onSave={save} onCancel={() => setAdding(null)} />}
      {connecting && <ConnectDialog host={connecting} onDone={() => setConnecting(null)} />}
      <div className="grid">
        {ROLES.map(({ role, label, hint }) => {
          const chosen = hostOf(role);
          const connection = chosen ? connections.get(chosen.id) : undefined;
          const connected = isConnected(chosen, connections);
          return (
            <FormField group key={role} label={`${label} (${hint})`} name={`${role}HostId`} error={props.errors[`${role}HostId`]}>
              <div className="inline">
                <select
                  value={idOf(role) ?? ''}
                  data-testid={`wizard-${role}-host`}
                  onChange={(event) => {
                    const id = event.target.value ? Number(event.target.value) : null;
                    props.onChange(role === 'client' ? { clientHostId: id } : { serverHostId: id });
                  }}
                >
                  <option value="">Choose…</option>
                  {hosts.map((host) => (
                    <option key={host.id} value={host.id}>
                      {host.name} ({host.kind === 'local' ? 'this machine' : `${host.user}@${host.address}`})
                    </option>
                  ))}
                </select>
                <button type="button" data-testid={`wizard-${role}-add`} onClick={() => setAdding(role)}>
                  Add…
                </button>
              </div>
              {chosen && (
                <div className="inline">
                  <span className={`badge ${connected ? 'connected' : (connection?.state ?? 'disconnected')}`} data-testid={`wizard-${role}-state`}>
                    {connected ? 'connected' : (connection?.state ?? 'not connected')}
                  </span>
                  {!connected && (
                    <button type="button" data-testid={`wizard-${role}-connect`} onClick={() => setConnecting(chosen)}>
                      Test connection
                    </button>
                  )}
                  {connection?.message && !connected && <span className="state-message">{connection.message}</span>}
                </div>
              )}
            </FormField>
          );
        })}
      </div>
      <div className="inline">
        <button type="button" data-testid="wizard-reach" disabled={!bothConnected || reach === 'checking'} onClick={() => void testReach()}>
          {reach === 'checking' ? 'Checking…' : 'Test client → server'}
        </button>
        {reach !== null && reach !== 'checking' && (
          <span data-testid="wizard-reach-result" className={typeof reach === 'string' || !reach.reachable ? 'field-error' : 'muted'}>
            {typeof reach === 'string'
              ? reach
              : reach.reachable
                ? `${client?.name} reaches ${server?.name}${reach.rttMs !== null ? ` (round trip ${reach.rttMs.toFixed(2)} ms)` : ''}`
                : `${client?.name} cannot reach ${server?.name}: ${reach.message ?? 'no answer'}`}
          </span>
        )}
      </div>
    </div>
  );
}
