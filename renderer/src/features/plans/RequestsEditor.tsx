// The wizard's named requests (step 4): add, rename, edit and remove the endpoints a plan sends,
// each run as its own session against every template. None: the profile's one request.

import { HTTP_METHODS } from '../../../../app/runs/load-profile.ts';
import { MAX_PLAN_REQUESTS } from '../../../../app/plans/plan-requests.ts';
import { FormField } from '../../common/FormField.tsx';
import { newRequestDraft, type RequestDraft } from './request-drafts.ts';

export function RequestsEditor(props: {
  rows: RequestDraft[];
  profile: { method: RequestDraft['method']; path: string };
  errors: Record<string, string>;
  onChange: (rows: RequestDraft[]) => void;
}) {
  const { rows } = props;
  const edit = (index: number, change: Partial<RequestDraft>) => props.onChange(rows.map((row, at) => (at === index ? { ...row, ...change } : row)));
  return (
    <div className="card" data-testid="wizard-requests">
      <h3>Requests</h3>
      <p className="hint">
        {rows.length === 0
          ? 'One request: the method and path above. Add named requests to run several endpoints, each as its own session against every template.'
          : 'Each named request runs as its own session against every template (the method and path above are not sent). A new one takes the headers, body and timeout above.'}
      </p>
      {rows.map((row, index) => (
        <div key={index} className="grid" data-testid="wizard-request">
          <FormField label="Name" name={`request-${index}-name`} error={props.errors[`request-${index}-name`]}>
            <input data-testid={`wizard-request-name-${index}`} value={row.name} maxLength={40} onChange={(event) => edit(index, { name: event.target.value })} />
          </FormField>
          <FormField label="Method" name={`request-${index}-method`} error={props.errors[`request-${index}-method`]}>
            <select data-testid={`wizard-request-method-${index}`} value={row.method} onChange={(event) => edit(index, { method: event.target.value as RequestDraft['method'] })}>
              {HTTP_METHODS.map((method) => (
                <option key={method}>{method}</option>
              ))}
            </select>
          </FormField>
          <FormField label="Path" name={`request-${index}-path`} error={props.errors[`request-${index}-path`]}>
            <input data-testid={`wizard-request-path-${index}`} className="mono" value={row.path} onChange={(event) => edit(index, { path: event.target.value })} />
          </FormField>
          <div className="field">
            <span>&nbsp;</span>
            <button type="button" data-testid={`wizard-request-remove-${index}`} onClick={() => props.onChange(rows.filter((_, at) => at !== index))}>
              Remove {row.name.trim() || 'request'}
            </button>
          </div>
        </div>
      ))}
      {props.errors.requests && <span className="field-error">{props.errors.requests}</span>}
      <button type="button" data-testid="wizard-request-add" disabled={rows.length >= MAX_PLAN_REQUESTS} onClick={() => props.onChange([...rows, newRequestDraft(rows, props.profile)])}>
        Add request
      </button>
    </div>
  );
}
