// Wizard step 1: the client hosts (one or several, each with an optional weight: they generate the
// load, split between them) and the server host (runs the template), each picked from the stored
// hosts or added here, and tested: connected, then each client reaching the server with its
// round-trip time.

import { useState } from 'react';
import type { HostConnection } from '../../../../app/hosts/connections.ts';
import type { Host, HostInput } from '../../../../app/hosts/hosts.ts';
import type { Reachability } from '../../../../app/hosts/system-info.ts';
import { errorMessage, useApi } from '../../api-context.tsx';
import { ConnectDialog } from '../hosts/ConnectDialog.tsx';
import { HostForm } from '../hosts/HostForm.tsx';
import { FormField } from '../../common/FormField.tsx';
import { ClientHostsField } from '../runs/ClientHostsField.tsx';
import type { ClientPick } from '../runs/client-picks.ts';
import { wizardClients, type WizardDraft } from './wizard-draft.ts';
import { EntryOptions } from '../../common/EntryOptions.tsx';

type Role = 'client' | 'server';

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
  // The last check, kept with the hosts it was for (each client to the server): other hosts show nothing.
  const [checked, setChecked] = useState<{ pair: string; results: Array<{ clientId: number; result: Reachability | string }> | 'checking' } | null>(null);
  const picks = wizardClients(draft);
  const hostById = (id: number | null) => hosts.find((host) => host.id === id);
  const clients = picks.map((pick) => hostById(pick.hostId)).filter((host): host is Host => host !== undefined);
  const server = hostById(draft.serverHostId);
  const allConnected = clients.length === picks.length && clients.every((client) => isConnected(client, connections)) && isConnected(server, connections);

  const pair = `${picks.map((pick) => pick.hostId).join(',')}->${draft.serverHostId}`;
  const reach = checked?.pair === pair ? checked.results : null;

  const setPicks = (next: ClientPick[]) => {
    const [first, ...more] = next;
    props.onChange({ clientHostId: first?.hostId ?? null, clientWeight: first?.weight ?? '', moreClients: more });
  };

  const save = async (input: HostInput) => {
    const host = await api.hosts.add(input);
    props.onHostsChanged();
    props.onChange(adding === 'client' ? (draft.clientHostId === null ? { clientHostId: host.id } : { moreClients: [...draft.moreClients, { hostId: host.id, weight: '' }] }) : { serverHostId: host.id });
    setAdding(null);
    setConnecting(host);
  };

  const testReach = async () => {
    if (!server) return;
    setChecked({ pair, results: 'checking' });
    const results: Array<{ clientId: number; result: Reachability | string }> = [];
    for (const client of clients) {
      try {
        results.push({ clientId: client.id, result: await api.hosts.reachability({ from: client.id, to: server.id }) });
      } catch (failure) {
        results.push({ clientId: client.id, result: errorMessage(failure) });
      }
    }
    setChecked({ pair, results });
  };

  const hostText = (host: Host) => `${host.name} (${host.kind === 'local' ? 'this machine' : `${host.user}@${host.address}`})`;
  const connectionState = (host: Host, testId: string) => {
    const connection = connections.get(host.id);
    const connected = isConnected(host, connections);
    return (
      <div className="inline">
        <span className={`badge ${connected ? 'connected' : (connection?.state ?? 'disconnected')}`} data-testid={`${testId}-state`}>
          {connected ? 'connected' : (connection?.state ?? 'not connected')}
        </span>
        {!connected && (
          <button type="button" data-testid={`${testId}-connect`} onClick={() => setConnecting(host)}>
            Test connection
          </button>
        )}
        {connection?.message && !connected && <span className="state-message">{connection.message}</span>}
      </div>
    );
  };

  return (
    <div className="wizard-step" data-testid="wizard-hosts">
      <p className="hint">Benchlab drives the machines over SSH: one generates the load (or several, the load split between them), another serves it. The same machine can be both, but then they share its cores.</p>
      {adding && <HostForm key={adding} host={null} hosts={hosts} onSave={save} onCancel={() => setAdding(null)} />}
      {connecting && <ConnectDialog host={connecting} onDone={() => setConnecting(null)} />}
      <div className="grid">
        <div className={picks.length > 1 ? 'field wide' : 'field'}>
          <ClientHostsField
            label={picks.length > 1 ? 'Client hosts (run the load agent; the load is split by weight)' : 'Client host (runs the load agent)'}
            testId="wizard-client-host"
            picks={picks}
            hosts={hosts}
            hostLabel={hostText}
            errors={props.errors}
            onPicks={setPicks}
            below={(hostId, index) => {
              const host = hostById(hostId);
              return host ? connectionState(host, index === 0 ? 'wizard-client' : `wizard-client-${index}`) : null;
            }}
          />
          <button type="button" className="client-add" data-testid="wizard-client-add" onClick={() => setAdding('client')}>
            Add a new host…
          </button>
        </div>
        <FormField group label="Server host (runs the server under test)" name="serverHostId" error={props.errors.serverHostId}>
          <div className="inline">
            <select value={draft.serverHostId ?? ''} data-testid="wizard-server-host" onChange={(event) => props.onChange({ serverHostId: event.target.value ? Number(event.target.value) : null })}>
              <option value="">Choose…</option>
              <EntryOptions entries={hosts} text={hostText} />
            </select>
            <button type="button" data-testid="wizard-server-add" onClick={() => setAdding('server')}>
              Add…
            </button>
          </div>
          {server && connectionState(server, 'wizard-server')}
        </FormField>
      </div>
      <div className="inline">
        <button type="button" data-testid="wizard-reach" disabled={!allConnected || reach === 'checking'} onClick={() => void testReach()}>
          {reach === 'checking' ? 'Checking…' : clients.length > 1 ? 'Test clients → server' : 'Test client → server'}
        </button>
        {reach !== null &&
          reach !== 'checking' &&
          reach.map(({ clientId, result }) => {
            const client = hostById(clientId);
            return (
              <span key={clientId} data-testid="wizard-reach-result" className={typeof result === 'string' || !result.reachable ? 'field-error' : 'muted'}>
                {typeof result === 'string'
                  ? `${client?.name}: ${result}`
                  : result.reachable
                    ? `${client?.name} reaches ${server?.name}${result.rttMs !== null ? ` (round trip ${result.rttMs.toFixed(2)} ms)` : ''}`
                    : `${client?.name} cannot reach ${server?.name}: ${result.message ?? 'no answer'}`}
              </span>
            );
          })}
      </div>
    </div>
  );
}
