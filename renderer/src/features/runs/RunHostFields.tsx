// The Run page's host fields: the clients that run the agent (one or several, with weights), the
// server sampled during the run, and a shortcut that takes the target from a ready deployment.

import type { Host } from '../../../../app/hosts/hosts.ts';
import type { Deployment } from '../../../../app/templates/templates-contract.ts';
import { FormField } from '../../common/FormField.tsx';
import { ClientHostsField } from './ClientHostsField.tsx';
import type { ClientPick } from './client-picks.ts';

export interface HostChoice {
  host: Host;
  connected: boolean;
}

export function RunHostFields(props: {
  errors: Record<string, string>;
  hosts: HostChoice[];
  clientPicks: ClientPick[];
  serverHostId: number | null;
  deployments: Deployment[];
  /** The deployment the target and server point at now, shown as chosen (it stays so across Start). */
  deploymentHostId: number | null;
  disabled?: boolean;
  onClientPicks: (picks: ClientPick[]) => void;
  onHosts: (change: { serverHostId: number | null }) => void;
  onTarget: (target: string) => void;
}) {
  const { errors, hosts } = props;
  const hostLabel = (choice: HostChoice) => `${choice.host.name}${choice.connected ? '' : ' (not connected)'}`;
  const connected = new Set(hosts.filter((choice) => choice.connected).map((choice) => choice.host.id));
  return (
    <div className="grid">
      <ClientHostsField
        label={props.clientPicks.length > 1 ? 'Client hosts (run the agent; the load is split by weight)' : 'Client host (runs the agent)'}
        testId="run-client"
        picks={props.clientPicks}
        hosts={hosts.map((choice) => choice.host)}
        hostLabel={(host) => `${host.name}${connected.has(host.id) ? '' : ' (not connected)'}`}
        errors={errors}
        disabled={props.disabled}
        onPicks={props.onClientPicks}
      />
      <FormField label="Server host (sampled: CPU, memory, network)" name="serverHostId" error={errors.serverHostId}>
        <select value={props.serverHostId ?? ''} data-testid="run-server" onChange={(event) => props.onHosts({ serverHostId: event.target.value ? Number(event.target.value) : null })}>
          <option value="">None</option>
          {hosts.map((choice) => (
            <option key={choice.host.id} value={choice.host.id}>
              {hostLabel(choice)}
            </option>
          ))}
        </select>
      </FormField>
      {props.deployments.length > 0 && (
        <FormField label="Deployed template" name="deployment" error={undefined}>
          <select
            value={props.deploymentHostId ?? ''}
            data-testid="run-deployment"
            onChange={(event) => {
              const deployment = props.deployments.find((entry) => String(entry.hostId) === event.target.value);
              if (!deployment?.url) return;
              props.onTarget(deployment.url.replace(/\/$/, ''));
              props.onHosts({ serverHostId: deployment.hostId });
            }}
          >
            <option value="">Use a deployment…</option>
            {props.deployments.map((deployment) => (
              <option key={deployment.hostId} value={deployment.hostId}>
                {deployment.templateName} ({deployment.variant}) on {deployment.hostName}
              </option>
            ))}
          </select>
        </FormField>
      )}
    </div>
  );
}
