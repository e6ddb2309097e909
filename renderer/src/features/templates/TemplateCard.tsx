// One template of the catalog: what it is, what it needs and serves, its variants and knobs (with
// their bounds, checked as you type by the same rules the back end applies), and Deploy.

import { useState, type ReactNode } from 'react';
import { resolveDeploySettings, type KnobValue, type Manifest, type Requirement } from '../../../../app/templates/templates.ts';

export interface DeployRequest {
  templateId: string;
  variant: string;
  knobs: Record<string, KnobValue>;
}

function requirementText(requirement: Requirement): string {
  if (requirement.runtime === 'node' && requirement.version !== undefined) return `Node.js ${requirement.version} exactly (Benchlab uploads it, whatever Node the host has)`;
  if (requirement.runtime === 'node') return `Node.js >= ${requirement.minVersion ?? 0} (Benchlab uploads a portable Node when the host has none)`;
  if (requirement.runtime === 'apache2') return 'Apache httpd (apache2 / httpd; Benchlab offers to install it)';
  if (requirement.runtime === 'java') return `Java >= ${requirement.minVersion} (any JVM on the host's PATH, in JAVA_HOME or /usr/lib/jvm; Benchlab offers to install a headless JRE)`;
  const other = requirement as { runtime: string; minVersion?: number };
  return `${other.runtime}${other.minVersion === undefined ? '' : ` >= ${other.minVersion}`} (Benchlab offers to install it)`;
}

function knobBounds(knob: Manifest['knobs'][number]): string {
  if (knob.type === 'integer') return `${knob.min}–${knob.max}, default ${knob.default}`;
  if (knob.type === 'boolean') return `default ${knob.default ? 'on' : 'off'}`;
  return `${knob.values.join(' / ')}, default ${knob.default}`;
}

export function TemplateCard(props: { manifest: Manifest; port: number; canDeploy: string | null; onDeploy: (request: DeployRequest) => void; children?: ReactNode }) {
  const { manifest } = props;
  const [variant, setVariant] = useState(manifest.defaultVariant);
  /** Integer knobs keep their text as typed, so "1" then "12" is not refused at "1". */
  const [knobText, setKnobText] = useState<Record<string, string>>({});
  const [knobFlags, setKnobFlags] = useState<Record<string, KnobValue>>({});

  const knobs: Record<string, KnobValue> = { ...knobFlags };
  for (const [id, text] of Object.entries(knobText)) knobs[id] = text.trim() === '' || Number.isNaN(Number(text)) ? text : Number(text);
  const resolved = resolveDeploySettings(manifest, { variant, knobs, port: props.port });
  const problems = resolved.ok ? [] : resolved.errors;
  const blocked = props.canDeploy ?? (problems.length > 0 ? problems[0]! : null);

  return (
    <div className="card template-card" data-testid={`template-${manifest.id}`}>
      <div className="page-header">
        <h2>{manifest.name}</h2>
        <button
          type="button"
          className="primary"
          data-testid="template-deploy"
          disabled={blocked !== null}
          title={blocked ?? undefined}
          onClick={() => resolved.ok && props.onDeploy({ templateId: manifest.id, variant: resolved.settings.variant, knobs: resolved.settings.knobs })}
        >
          Deploy
        </button>
      </div>
      {/* What the page asks before this deploy goes ahead (a server to replace), beside its button. */}
      {props.children}
      <p className="hint">{manifest.description}</p>
      <dl className="template-facts">
        <dt>Needs</dt>
        <dd data-testid="template-requires">{manifest.requires.length === 0 ? 'nothing beyond a POSIX shell' : manifest.requires.map(requirementText).join('; ')}</dd>
        <dt>Serves</dt>
        <dd className="mono" data-testid="template-endpoints">
          {manifest.endpoints.map((endpoint) => `/${endpoint}`).join(' ')} <span className="muted">(others answer 404)</span>
        </dd>
      </dl>
      <div className="grid">
        <label className="field">
          <span>Variant</span>
          <select value={variant} onChange={(event) => setVariant(event.target.value)} data-testid="template-variant">
            {manifest.variants.map((candidate) => (
              <option key={candidate.id} value={candidate.id}>
                {candidate.name}
                {/* A variant's own needs (Java 21 for virtual threads) are checked on the host at deploy. */}
                {candidate.requires?.length ? ` (needs ${candidate.requires.map((requirement) => requirementText(requirement).replace(/ \(.*$/, '')).join(', ')})` : ''}
              </option>
            ))}
          </select>
          <span className="muted small">{manifest.variants.find((candidate) => candidate.id === variant)?.description}</span>
        </label>
        {manifest.knobs.map((knob) => (
          <label className="field" key={knob.id}>
            <span>
              {knob.name} <span className="muted">({knobBounds(knob)})</span>
            </span>
            {knob.type === 'integer' ? (
              <input
                type="number"
                min={knob.min}
                max={knob.max}
                value={knobText[knob.id] ?? String(knob.default)}
                aria-invalid={problems.some((problem) => problem.startsWith(`knob "${knob.id}"`))}
                data-testid={`knob-${knob.id}`}
                onChange={(event) => setKnobText((current) => ({ ...current, [knob.id]: event.target.value }))}
              />
            ) : knob.type === 'boolean' ? (
              <input
                type="checkbox"
                checked={Boolean(knobFlags[knob.id] ?? knob.default)}
                data-testid={`knob-${knob.id}`}
                onChange={(event) => setKnobFlags((current) => ({ ...current, [knob.id]: event.target.checked }))}
              />
            ) : (
              <select value={String(knobFlags[knob.id] ?? knob.default)} data-testid={`knob-${knob.id}`} onChange={(event) => setKnobFlags((current) => ({ ...current, [knob.id]: event.target.value }))}>
                {knob.values.map((value) => (
                  <option key={value}>{value}</option>
                ))}
              </select>
            )}
            <span className="muted small">{knob.description}</span>
          </label>
        ))}
      </div>
      {problems.map((problem) => (
        <div key={problem} className="field-error" data-testid="template-problem">
          {problem}
        </div>
      ))}
    </div>
  );
}
