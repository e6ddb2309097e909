// Wizard step 3: the templates and variants to compare, run one after another on the server host,
// each as its own session; those a study chosen first proposes are checked and marked. A server
// already running on the server host is said here, with a way to stop it, before the plan fails on it.

import type { ReactNode } from 'react';
import type { Study } from '../../../../app/plans/studies.ts';
import type { Manifest } from '../../../../app/templates/templates.ts';
import { MAX_PLAN_TARGETS } from '../../../../app/plans/plan.ts';
import { FormField } from '../../common/FormField.tsx';
import type { WizardDraft, WizardTarget } from './wizard-draft.ts';

const same = (a: WizardTarget, b: WizardTarget) => a.templateId === b.templateId && a.variant === b.variant;

export function TemplatesStep(props: {
  draft: WizardDraft;
  errors: Record<string, string>;
  templates: Manifest[];
  /** The study the answers came from, whose templates are marked. */
  study: Study | null;
  /** What already runs on the server host (ServerOccupantBanner), or nothing. */
  occupant: ReactNode;
  onChange: (change: Partial<WizardDraft>) => void;
}) {
  const { draft } = props;
  const toggle = (target: WizardTarget, on: boolean) =>
    props.onChange({ targets: on ? [...draft.targets.filter((other) => !same(other, target)), target] : draft.targets.filter((other) => !same(other, target)) });
  return (
    <div className="wizard-step" data-testid="wizard-templates">
      <p className="hint">
        Each one is deployed on the server host, loaded with the same profile, and stopped before the next ({draft.targets.length} chosen, at most {MAX_PLAN_TARGETS}).
      </p>
      {props.occupant}
      {props.study && (
        <p className="hint" data-testid="wizard-templates-study">
          Proposed by the study <strong>{props.study.name}</strong>: its templates are checked (those this Benchlab has); change them freely.
        </p>
      )}
      {props.errors.targets && (
        <div className="field-error" data-testid="error-targets">
          {props.errors.targets}
        </div>
      )}
      <div className="grid">
        <FormField group label="Port on the server host (empty: each template's default)" name="port" error={props.errors.port}>
          <input value={draft.port} data-testid="wizard-port" inputMode="numeric" placeholder="8080" onChange={(event) => props.onChange({ port: event.target.value })} />
        </FormField>
      </div>
      <div className="template-choices">
        {props.templates.map((template) => (
          <fieldset key={template.id} className="card" data-testid={`wizard-template-${template.id}`}>
            <legend>{template.name}</legend>
            {template.variants.map((variant) => {
              const target = { templateId: template.id, variant: variant.id };
              const chosen = draft.targets.find((other) => same(other, target));
              const checked = chosen !== undefined;
              return (
                <label key={variant.id} className="choice" title={variant.description}>
                  <input
                    type="checkbox"
                    checked={checked}
                    disabled={!checked && draft.targets.length >= MAX_PLAN_TARGETS}
                    data-testid={`wizard-target-${template.id}-${variant.id}`}
                    onChange={(event) => toggle(target, event.target.checked)}
                  />{' '}
                  {variant.name}
                  {props.study?.templates.some((proposed) => same(proposed, target)) && (
                    <span className="badge" data-testid={`wizard-target-proposed-${template.id}-${variant.id}`}>
                      study
                    </span>
                  )}
                  <span className="muted small"> — {variant.description}</span>
                  {chosen?.knobs && Object.keys(chosen.knobs).length > 0 && (
                    <span className="small" data-testid={`wizard-target-knobs-${template.id}-${variant.id}`}>
                      {' '}
                      (knobs: {Object.entries(chosen.knobs).map(([knob, value]) => `${knob} ${String(value)}`).join(', ')})
                    </span>
                  )}
                </label>
              );
            })}
          </fieldset>
        ))}
      </div>
    </div>
  );
}
