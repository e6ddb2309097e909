// Wizard step 2: a preset per host (or none), each shown as its plan on that host — every key's
// current and new value — which is exactly what the run will apply (a host that changes in between
// makes the apply refuse, rather than do something nobody reviewed).

import type { Host } from '../../../../app/hosts/hosts.ts';
import type { PresetPlan } from '../../../../app/presets/preset-plan.ts';
import type { Preset } from '../../../../app/presets/presets.ts';
import { PresetPlanView } from '../presets/PresetHostPanel.tsx';
import { FormField } from '../../common/FormField.tsx';
import { ErrorBanner } from '../../common/Banner.tsx';
import type { WizardDraft } from './wizard-draft.ts';

export type PlanLookup = PresetPlan | string | null;

export function PresetsStep(props: {
  draft: WizardDraft;
  errors: Record<string, string>;
  hosts: Host[];
  presets: Preset[];
  plans: { client: PlanLookup; server: PlanLookup };
  onChange: (change: Partial<WizardDraft>) => void;
}) {
  const { draft, presets } = props;
  const roles = [
    { role: 'client' as const, hostId: draft.clientHostId, presetId: draft.clientPreset },
    { role: 'server' as const, hostId: draft.serverHostId, presetId: draft.serverPreset },
  ];
  return (
    <div className="wizard-step" data-testid="wizard-presets">
      <p className="hint">Kernel and limits settings applied before the first template starts. Choose none to measure the hosts as they are.</p>
      {roles.map(({ role, hostId, presetId }) => {
        const host = props.hosts.find((candidate) => candidate.id === hostId);
        const plan = props.plans[role];
        return (
          <section key={role} className="card" data-testid={`wizard-preset-${role}`}>
            <FormField group label={`${role === 'client' ? 'Client' : 'Server'} host ${host?.name ?? ''}`} name={`${role}Preset`} error={props.errors[`${role}Preset`]}>
              <select
                value={presetId ?? ''}
                data-testid={`wizard-${role}-preset`}
                onChange={(event) => props.onChange(role === 'client' ? { clientPreset: event.target.value || null } : { serverPreset: event.target.value || null })}
              >
                <option value="">No preset (leave the host as it is)</option>
                {presets.map((preset) => (
                  <option key={preset.id} value={preset.id}>
                    {preset.name}
                  </option>
                ))}
              </select>
            </FormField>
            {presetId && (
              <div data-testid={`wizard-${role}-plan`}>
                {plan === null ? (
                  <p className="hint">Reading the host’s current settings…</p>
                ) : typeof plan === 'string' ? (
                  <ErrorBanner error={plan} />
                ) : (
                  <>
                    <p className="muted" data-testid={`wizard-${role}-plan-summary`}>
                      {plan.noChanges ? 'Already in effect: nothing to change.' : `${plan.changes} change${plan.changes === 1 ? '' : 's'} on ${host?.name ?? 'the host'}:`}
                    </p>
                    <PresetPlanView plan={plan} />
                  </>
                )}
              </div>
            )}
          </section>
        );
      })}
      <label className="inline">
        <input type="checkbox" checked={draft.revertPresets} data-testid="wizard-revert" onChange={(event) => props.onChange({ revertPresets: event.target.checked })} /> Put both hosts back
        as they were when the plan ends
      </label>
    </div>
  );
}
