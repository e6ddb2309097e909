// Editing a user preset (a new one, a duplicate, or an existing one): limits lines and sysctls,
// validated as the user types with the same rules the back end applies before any remote action.

import { useState, type FormEvent } from 'react';
import {
  KNOWN_SYSCTLS,
  LIMIT_ITEM_NAMES,
  LIMIT_ITEMS,
  LIMIT_TYPES,
  presetFieldErrors,
  type LimitSetting,
  type PresetDefinition,
  type SysctlSetting,
} from '../../../../app/presets/presets.ts';
import { errorMessage } from '../../api-context.tsx';
import { ErrorBanner } from '../../common/Banner.tsx';

const NEW_LIMIT: LimitSetting = { domain: '*', type: 'soft', item: 'nofile', value: '' };
const NEW_SYSCTL: SysctlSetting = { key: '', value: '' };
const TYPE_LABELS: Record<string, string> = { soft: 'soft', hard: 'hard', '-': 'soft + hard (-)' };

export function PresetEditor(props: {
  title: string;
  initial: PresetDefinition;
  onSave: (definition: PresetDefinition) => Promise<void>;
  onCancel: () => void;
}) {
  const [draft, setDraft] = useState<PresetDefinition>(props.initial);
  const [touched, setTouched] = useState<Set<string>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const [saving, setSaving] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);

  const errors = presetFieldErrors(draft);
  const shown = (field: string) => (submitted || touched.has(field) ? errors[field] : undefined);
  const touch = (field: string) => setTouched((current) => new Set(current).add(field));

  const change = (next: PresetDefinition, field: string) => {
    setDraft(next);
    touch(field);
    setServerError(null);
  };
  const setLimit = (index: number, patch: Partial<LimitSetting>, field: string) =>
    change({ ...draft, limits: draft.limits.map((limit, i) => (i === index ? { ...limit, ...patch } : limit)) }, `limits.${index}.${field}`);
  const setSysctl = (index: number, patch: Partial<SysctlSetting>, field: string) =>
    change({ ...draft, sysctls: draft.sysctls.map((sysctl, i) => (i === index ? { ...sysctl, ...patch } : sysctl)) }, `sysctls.${index}.${field}`);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (Object.keys(errors).length > 0) return;
    setSaving(true);
    try {
      await props.onSave(draft);
    } catch (error) {
      setServerError(errorMessage(error));
    } finally {
      setSaving(false);
    }
  };

  const error = (field: string) =>
    shown(field) && (
      <span className="field-error" role="alert" data-testid={`preset-error-${field}`}>
        {shown(field)}
      </span>
    );

  return (
    <form className="card preset-editor" onSubmit={submit} noValidate data-testid="preset-editor">
      <h2>{props.title}</h2>
      <div className="grid">
        <label className="field">
          <span>Name</span>
          <input data-testid="preset-name" value={draft.name} aria-invalid={shown('name') ? true : undefined} onChange={(event) => change({ ...draft, name: event.target.value }, 'name')} />
          {error('name')}
        </label>
        <label className="field wide">
          <span>Description</span>
          <input
            data-testid="preset-description"
            value={draft.description}
            aria-invalid={shown('description') ? true : undefined}
            onChange={(event) => change({ ...draft, description: event.target.value }, 'description')}
          />
          {error('description')}
        </label>
      </div>

      <h3>Limits (pam_limits, for new logins)</h3>
      <table className="table compact" data-testid="preset-limits">
        <thead>
          <tr>
            <th>Domain</th>
            <th>Type</th>
            <th>Item</th>
            <th>Value</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {draft.limits.map((limit, index) => (
            <tr key={index}>
              <td>
                <input data-testid={`limit-domain-${index}`} value={limit.domain} size={10} aria-invalid={shown(`limits.${index}.domain`) ? true : undefined} onChange={(event) => setLimit(index, { domain: event.target.value }, 'domain')} />
                {error(`limits.${index}.domain`)}
              </td>
              <td>
                <select data-testid={`limit-type-${index}`} value={limit.type} onChange={(event) => setLimit(index, { type: event.target.value }, 'type')}>
                  {LIMIT_TYPES.map((type) => (
                    <option key={type} value={type}>
                      {TYPE_LABELS[type]}
                    </option>
                  ))}
                </select>
                {error(`limits.${index}.type`)}
              </td>
              <td>
                <select data-testid={`limit-item-${index}`} value={limit.item} onChange={(event) => setLimit(index, { item: event.target.value }, 'item')}>
                  {LIMIT_ITEM_NAMES.map((item) => (
                    <option key={item} value={item}>
                      {item} — {LIMIT_ITEMS[item].label}
                    </option>
                  ))}
                </select>
                {error(`limits.${index}.item`)}
              </td>
              <td>
                <input data-testid={`limit-value-${index}`} value={limit.value} size={10} inputMode="numeric" aria-invalid={shown(`limits.${index}.value`) ? true : undefined} onChange={(event) => setLimit(index, { value: event.target.value }, 'value')} />
                {error(`limits.${index}.value`)}
                {error(`limits.${index}`)}
              </td>
              <td className="row-actions">
                <button type="button" data-testid={`limit-remove-${index}`} onClick={() => change({ ...draft, limits: draft.limits.filter((_, i) => i !== index) }, 'limits')}>
                  Remove
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="actions spaced">
        <button type="button" data-testid="limit-add" onClick={() => change({ ...draft, limits: [...draft.limits, NEW_LIMIT] }, 'limits')}>
          Add a limit
        </button>
      </div>

      <h3>Sysctls (set live and in /etc/sysctl.d)</h3>
      <datalist id="known-sysctls">
        {Object.keys(KNOWN_SYSCTLS).map((key) => (
          <option key={key} value={key} />
        ))}
      </datalist>
      <table className="table compact" data-testid="preset-sysctls">
        <thead>
          <tr>
            <th>Key</th>
            <th>Value</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {draft.sysctls.map((sysctl, index) => (
            <tr key={index}>
              <td>
                <input data-testid={`sysctl-key-${index}`} list="known-sysctls" value={sysctl.key} size={32} aria-invalid={shown(`sysctls.${index}.key`) ? true : undefined} onChange={(event) => setSysctl(index, { key: event.target.value }, 'key')} />
                {error(`sysctls.${index}.key`)}
              </td>
              <td>
                <input data-testid={`sysctl-value-${index}`} value={sysctl.value} size={16} aria-invalid={shown(`sysctls.${index}.value`) ? true : undefined} onChange={(event) => setSysctl(index, { value: event.target.value }, 'value')} />
                {error(`sysctls.${index}.value`)}
              </td>
              <td className="row-actions">
                <button type="button" data-testid={`sysctl-remove-${index}`} onClick={() => change({ ...draft, sysctls: draft.sysctls.filter((_, i) => i !== index) }, 'sysctls')}>
                  Remove
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {error('sysctls')}
      <div className="actions spaced">
        <button type="button" data-testid="sysctl-add" onClick={() => change({ ...draft, sysctls: [...draft.sysctls, NEW_SYSCTL] }, 'sysctls')}>
          Add a sysctl
        </button>
      </div>

      <ErrorBanner error={serverError} testId="preset-save-error" />
      <div className="actions">
        <button type="submit" className="primary" disabled={saving || (submitted && Object.keys(errors).length > 0)} data-testid="preset-save">
          {saving ? 'Saving…' : 'Save preset'}
        </button>
        <button type="button" onClick={props.onCancel} data-testid="preset-cancel">
          Cancel
        </button>
      </div>
    </form>
  );
}
