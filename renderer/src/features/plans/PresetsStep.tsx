// Wizard step 2: a preset for the clients and one for the server (or none), each shown as its plan
// on every host it goes to — every key's current and new value, on each client when there are
// several — which is exactly what the run will apply (a host that changes in between makes the
// apply refuse, rather than do something nobody reviewed).

import type { Host } from '../../../../app/hosts/hosts.ts';
import type { PresetPlan } from '../../../../app/presets/preset-plan.ts';
import type { Preset } from '../../../../app/presets/presets.ts';
import { PresetPlanView } from '../presets/PresetHostPanel.tsx';
import { FormField } from '../../common/FormField.tsx';
import { ErrorBanner } from '../../common/Banner.tsx';
import { plural } from '../../../../app/common/plural.ts';
import { clientHostIds, type WizardDraft } from './wizard-draft.ts';
import { EntryOptions } from '../../common/EntryOptions.tsx';

export type PlanLookup = PresetPlan | string | null;
/** The plan of the role's chosen preset on one host: the plan, why there is none, or null while it is read. */
export type PresetPlanLookup = (role: 'client' | 'server', hostId: number) => PlanLookup;

/** One preset's plan on one host, as the run will apply it. */
function HostPlan(props: { plan: PlanLookup; hostName: string; testId: string }) {
  const { plan } = props;
  return (
    <div data-testid={props.testId}>
      {plan === null ? (
        <p className="hint">Reading the settings of {props.hostName}…</p>
      ) : typeof plan === 'string' ? (
        <ErrorBanner error={`${props.hostName}: ${plan}`} />
      ) : (
        <>
          <p className="muted" data-testid={`${props.testId}-summary`}>
            {plan.noChanges ? `Already in effect on ${props.hostName}: nothing to change.` : `${plural(plan.changes, 'change')} on ${props.hostName}:`}
          </p>
          <PresetPlanView plan={plan} />
        </>
      )}
    </div>
  );
}

export function PresetsStep(props: {
  draft: WizardDraft;
  errors: Record<string, string>;
  hosts: Host[];
  presets: Preset[];
  plans: PresetPlanLookup;
  onChange: (change: Partial<WizardDraft>) => void;
}) {
  const { draft, presets } = props;
  const clientIds = clientHostIds(draft);
  const roles = [
    { role: 'client' as const, hostIds: clientIds, presetId: draft.clientPreset },
    { role: 'server' as const, hostIds: draft.serverHostId === null ? [] : [draft.serverHostId], presetId: draft.serverPreset },
  ];
  const hostName = (hostId: number) => props.hosts.find((candidate) => candidate.id === hostId)?.name ?? `host ${hostId}`;
  return (
    <div className="wizard-step" data-testid="wizard-presets">
      <p className="hint">Kernel and limits settings applied before the first template starts. Choose none to measure the hosts as they are.</p>
      {roles.map(({ role, hostIds, presetId }) => {
        const label = role === 'server' ? 'Server host' : hostIds.length > 1 ? 'Client hosts (the preset goes to each)' : 'Client host';
        return (
          <section key={role} className="card" data-testid={`wizard-preset-${role}`}>
            <FormField group label={`${label} ${hostIds.map(hostName).join(', ')}`} name={`${role}Preset`} error={props.errors[`${role}Preset`]}>
              <select
                value={presetId ?? ''}
                data-testid={`wizard-${role}-preset`}
                onChange={(event) => props.onChange(role === 'client' ? { clientPreset: event.target.value || null } : { serverPreset: event.target.value || null })}
              >
                <option value="">No preset (leave the host as it is)</option>
                <EntryOptions entries={presets} />
              </select>
            </FormField>
            {presetId &&
              hostIds.map((hostId, index) => (
                // The first host keeps the plain test id, as with one client; each further client is numbered.
                <HostPlan key={hostId} plan={props.plans(role, hostId)} hostName={hostName(hostId)} testId={index === 0 ? `wizard-${role}-plan` : `wizard-${role}-plan-${index + 1}`} />
              ))}
          </section>
        );
      })}
      <label className="inline">
        <input type="checkbox" checked={draft.revertPresets} data-testid="wizard-revert" onChange={(event) => props.onChange({ revertPresets: event.target.checked })} /> Put every host a
        preset changed back as it was when the plan ends
      </label>
    </div>
  );
}
