// Editing a user preset (a new one, a duplicate, or an existing one): limits lines, sysctls and the
// network side (tc), validated as the user types with the same rules the back end applies before any remote action.

import type { InputHTMLAttributes, ReactNode } from 'react';
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
import { AUTO_INTERFACE, SETTING_INFO, type NetworkSetting, type NetworkShaping } from '../../../../app/presets/network-shaping.ts';
import { FormActions } from '../../common/FormActions.tsx';
import { FieldError, FormField } from '../../common/FormField.tsx';
import { TableHead } from '../../common/TableHead.tsx';
import { useEditForm } from '../../common/use-edit-form.ts';

const NEW_LIMIT: LimitSetting = { domain: '*', type: 'soft', item: 'nofile', value: '' };
const NEW_SYSCTL: SysctlSetting = { key: '', value: '' };
const TYPE_LABELS: Record<string, string> = { soft: 'soft', hard: 'hard', '-': 'soft + hard (-)' };
const NEW_NETWORK: NetworkShaping = { interface: AUTO_INTERFACE };
const NETWORK_FIELDS: NetworkSetting[] = ['rate', 'delay', 'jitter', 'loss'];

/** The limits and the sysctls alike: a table of rows, each with a Remove button, and an Add button under it. */
function EditableRows<T>(props: {
  name: 'limit' | 'sysctl';
  columns: string[];
  rows: T[];
  cells: (row: T, index: number) => ReactNode;
  onRemove: (index: number) => void;
  addLabel: string;
  onAdd: () => void;
  /** What is wrong with the rows as a whole (shown under the table). */
  footer?: ReactNode;
}) {
  return (
    <>
      <table className="table compact" data-testid={`preset-${props.name}s`}>
        <TableHead columns={[...props.columns, '']} />
        <tbody>
          {props.rows.map((row, index) => (
            <tr key={index}>
              {props.cells(row, index)}
              <td className="row-actions">
                <button type="button" data-testid={`${props.name}-remove-${index}`} onClick={() => props.onRemove(index)}>
                  Remove
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {props.footer}
      <div className="actions spaced">
        <button type="button" data-testid={`${props.name}-add`} onClick={props.onAdd}>
          {props.addLabel}
        </button>
      </div>
    </>
  );
}

export function PresetEditor(props: {
  title: string;
  initial: PresetDefinition;
  onSave: (definition: PresetDefinition) => Promise<void>;
  onCancel: () => void;
}) {
  const form = useEditForm(props.initial, presetFieldErrors, props.onSave);
  const { draft, shown, change } = form;
  const setLimit = (index: number, patch: Partial<LimitSetting>, field: string) =>
    change({ ...draft, limits: draft.limits.map((limit, i) => (i === index ? { ...limit, ...patch } : limit)) }, `limits.${index}.${field}`);
  const setSysctl = (index: number, patch: Partial<SysctlSetting>, field: string) =>
    change({ ...draft, sysctls: draft.sysctls.map((sysctl, i) => (i === index ? { ...sysctl, ...patch } : sysctl)) }, `sysctls.${index}.${field}`);

  const error = (field: string) => <FieldError error={shown(field)} testId={`preset-error-${field}`} />;
  /** A text cell: its input (marked invalid while its error shows), its error, and the row's own where it has one. */
  const textCell = (field: string, testId: string, input: InputHTMLAttributes<HTMLInputElement>, rowField?: string) => (
    <td>
      <input data-testid={testId} {...input} aria-invalid={shown(field) ? true : undefined} />
      {error(field)}
      {rowField && error(rowField)}
    </td>
  );

  return (
    <form className="card preset-editor" onSubmit={(event) => void form.submit(event)} noValidate data-testid="preset-editor">
      <h2>{props.title}</h2>
      <div className="grid">
        <FormField label="Name" name="name" error={shown('name')} errorTestId="preset-error-name">
          <input data-testid="preset-name" value={draft.name} aria-invalid={shown('name') ? true : undefined} onChange={(event) => change({ ...draft, name: event.target.value }, 'name')} />
        </FormField>
        <FormField wide label="Description" name="description" error={shown('description')} errorTestId="preset-error-description">
          <input
            data-testid="preset-description"
            value={draft.description}
            aria-invalid={shown('description') ? true : undefined}
            onChange={(event) => change({ ...draft, description: event.target.value }, 'description')}
          />
        </FormField>
      </div>

      <h3>Limits (pam_limits, for new logins)</h3>
      <EditableRows
        name="limit"
        columns={['Domain', 'Type', 'Item', 'Value']}
        rows={draft.limits}
        cells={(limit, index) => (
          <>
            {textCell(`limits.${index}.domain`, `limit-domain-${index}`, { value: limit.domain, size: 10, onChange: (event) => setLimit(index, { domain: event.target.value }, 'domain') })}
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
            {textCell(`limits.${index}.value`, `limit-value-${index}`, { value: limit.value, size: 10, inputMode: 'numeric', onChange: (event) => setLimit(index, { value: event.target.value }, 'value') }, `limits.${index}`)}
          </>
        )}
        onRemove={(index) => change({ ...draft, limits: draft.limits.filter((_, i) => i !== index) }, 'limits')}
        addLabel="Add a limit"
        onAdd={() => change({ ...draft, limits: [...draft.limits, NEW_LIMIT] }, 'limits')}
      />

      <h3>Sysctls (set live and in /etc/sysctl.d)</h3>
      <datalist id="known-sysctls">
        {Object.keys(KNOWN_SYSCTLS).map((key) => (
          <option key={key} value={key} />
        ))}
      </datalist>
      <EditableRows
        name="sysctl"
        columns={['Key', 'Value']}
        rows={draft.sysctls}
        cells={(sysctl, index) => (
          <>
            {textCell(`sysctls.${index}.key`, `sysctl-key-${index}`, { list: 'known-sysctls', value: sysctl.key, size: 32, onChange: (event) => setSysctl(index, { key: event.target.value }, 'key') })}
            {textCell(`sysctls.${index}.value`, `sysctl-value-${index}`, { value: sysctl.value, size: 16, onChange: (event) => setSysctl(index, { value: event.target.value }, 'value') })}
          </>
        )}
        onRemove={(index) => change({ ...draft, sysctls: draft.sysctls.filter((_, i) => i !== index) }, 'sysctls')}
        addLabel="Add a sysctl"
        onAdd={() => change({ ...draft, sysctls: [...draft.sysctls, NEW_SYSCTL] }, 'sysctls')}
        footer={error('sysctls')}
      />

      <h3>Network (tc on the host's egress)</h3>
      <label className="check">
        <input
          type="checkbox"
          data-testid="network-enabled"
          checked={draft.network !== null}
          onChange={(event) => change({ ...draft, network: event.target.checked ? NEW_NETWORK : null }, 'network')}
        />{' '}
        Shape what leaves the host: bandwidth, delay, jitter, loss (a bandwidth for large answers goes on the server)
      </label>
      {draft.network && (
        <div className="grid">
          <FormField label="Interface" name="network.interface" error={shown('network.interface')} errorTestId="preset-error-network.interface">
            <input
              data-testid="network-interface"
              value={draft.network.interface}
              size={10}
              aria-invalid={shown('network.interface') ? true : undefined}
              onChange={(event) => change({ ...draft, network: { ...draft.network!, interface: event.target.value } }, 'network.interface')}
            />
          </FormField>
          {NETWORK_FIELDS.map((setting) => {
            const { field, label, unit } = SETTING_INFO[setting];
            const value = draft.network![field];
            return (
              <FormField key={setting} label={`${label[0]!.toUpperCase()}${label.slice(1)} (${unit})`} name={`network.${field}`} error={shown(`network.${field}`)} errorTestId={`preset-error-network.${field}`}>
                <input
                  type="number"
                  step="any"
                  data-testid={`network-${setting}`}
                  value={typeof value === 'number' ? value : ''}
                  placeholder="none"
                  aria-invalid={shown(`network.${field}`) ? true : undefined}
                  onChange={(event) => {
                    const { [field]: _old, ...rest } = draft.network!;
                    const next = event.target.value === '' ? rest : { ...rest, [field]: Number(event.target.value) };
                    change({ ...draft, network: next as NetworkShaping }, `network.${field}`);
                  }}
                />
              </FormField>
            );
          })}
        </div>
      )}
      {error('network')}

      <FormActions testIdPrefix="preset" saveLabel="Save preset" saving={form.saving} disabled={form.submitted && Object.keys(form.errors).length > 0} error={form.serverError} onCancel={props.onCancel} />
    </form>
  );
}
