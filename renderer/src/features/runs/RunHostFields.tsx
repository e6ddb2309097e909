// The Run page's host fields: the client that runs the agent, the server sampled during the run, and
// a shortcut that takes the target from a ready deployment.

import type { Host } from '../../../../app/hosts/hosts.ts';
import type { Deployment } from '../../../../app/templates/templates-contract.ts';
import { FormField } from '../../common/FormField.tsx';

export interface HostChoice {
  host: Host;
  connected: boolean;
}

const ROLES = [
  { key: 'clientHostId', label: 'Client host (runs the agent)', testId: 'run-client', none: 'Choose…' },
  { key: 'serverHostId', label: 'Server host (sampled: CPU, memory, network)', testId: 'run-server', none: 'None' },
] as const;

export function RunHostFields(props: {
  errors: Record<string, string>;
  hosts: HostChoice[];
  clientHostId: number | null;
  serverHostId: number | null;
  deployments: Deployment[];
  onHosts: (change: { clientHostId?: number | null; serverHostId?: number | null }) => void;
  onTarget: (target: string) => void;
}) {
  const { errors, hosts } = props;
  const hostLabel = (choice: HostChoice) => `${choice.host.name}${choice.connected ? '' : ' (not connected)'}`;
  return (
    <div className="grid">
      {ROLES.map(({ key, label, testId, none }) => (
        <FormField key={key} label={label} name={key} error={errors[key]}>
          <select value={props[key] ?? ''} data-testid={testId} onChange={(event) => props.onHosts({ [key]: event.target.value ? Number(event.target.value) : null })}>
            <option value="">{none}</option>
            {hosts.map((choice) => (
              <option key={choice.host.id} value={choice.host.id}>
                {hostLabel(choice)}
              </option>
            ))}
          </select>
        </FormField>
      ))}
      {props.deployments.length > 0 && (
        <FormField label="Deployed template" name="deployment" error={undefined}>
          <select
            value=""
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
