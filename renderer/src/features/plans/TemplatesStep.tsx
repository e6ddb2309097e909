// Wizard step 3: the templates and variants to compare, run one after another on the server host,
// each as its own session.

import type { Manifest } from '../../../../app/templates/templates.ts';
import { MAX_PLAN_TARGETS } from '../../../../app/plans/plan.ts';
import { FormField } from '../../common/FormField.tsx';
import type { WizardDraft, WizardTarget } from './wizard-draft.ts';

const same = (a: WizardTarget, b: WizardTarget) => a.templateId === b.templateId && a.variant === b.variant;

export function TemplatesStep(props: {
  draft: WizardDraft;
  errors: Record<string, string>;
  templates: Manifest[];
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
