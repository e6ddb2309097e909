// The load profile form of the Run page and the wizard: target, request, model (the closed one with
// its think time), sweep, warm-up and bands,
// validated as the user types with the same schema the back end applies, and warned about when its
// connection maximum cannot carry its rate. Another model clears a sweep whose values would change
// meaning, and says so beside the sweep.

import { useState, type ReactNode } from 'react';
import { FormField } from '../../common/FormField.tsx';
import { Banner } from '../../common/Banner.tsx';
import { applySweepValue, describeOpenCapacity, HTTP_METHODS, StepLoad } from '../../../../app/runs/load-profile.ts';
import { profileOf, switchLoad, type ProfileDraft } from './profile-draft.ts';

/** The first step whose connection maximum cannot carry its rate, in words; null when all can. */
function capacityWarning(draft: ProfileDraft): string | null {
  if (draft.model !== 'open') return null;
  const { load, sweep = [] } = profileOf(draft);
  const parsed = StepLoad.safeParse(load);
  if (!parsed.success) return null;
  const steps = sweep.length > 0 ? sweep.map((value) => applySweepValue(parsed.data, value)) : [parsed.data];
  for (const [index, step] of steps.entries()) {
    const warning = describeOpenCapacity(step);
    if (warning) return steps.length > 1 ? `Step ${index + 1}: ${warning}` : warning;
  }
  return null;
}

export function ProfileForm(props: {
  draft: ProfileDraft;
  errors: Record<string, string>;
  disabled: boolean;
  /** The Run page asks for the target; the wizard's targets are its deployments. */
  withTarget: boolean;
  onDraft: (change: Partial<ProfileDraft>) => void;
  /** Fields shown first (the Run page's hosts). */
  children?: ReactNode;
}) {
  const { draft, errors, disabled, onDraft } = props;
  const [sweepNote, setSweepNote] = useState<string | null>(null);
  const switchTo = (change: Partial<Pick<ProfileDraft, 'model' | 'openKind'>>) => {
    const switched = switchLoad(draft, change);
    setSweepNote(switched.note);
    onDraft(switched.change);
  };
  const input = (name: keyof ProfileDraft, type: 'text' | 'number' = 'number') => (
    <input
      type={type}
      value={draft[name]}
      disabled={disabled}
      data-testid={`run-${name}`}
      aria-invalid={errors[name] ? true : undefined}
      onChange={(event) => onDraft({ [name]: event.target.value } as Partial<ProfileDraft>)}
    />
  );
  const inputField = (label: string, name: keyof ProfileDraft, type: 'text' | 'number' = 'number') => (
    <FormField label={label} name={name} error={errors[name]}>
      {input(name, type)}
    </FormField>
  );
  const capacity = capacityWarning(draft);
  const sweepLabel =
    draft.model === 'closed' ? 'Sweep: connections per step' : draft.openKind === 'rate' ? 'Sweep: rates per step (req/s)' : 'Sweep: requests per step';

  return (
    <fieldset className="run-form" disabled={disabled}>
      {props.children}
      <div className="grid">
        {props.withTarget && (
          <FormField label="Target (as the client reaches it)" name="target" error={errors.target} wide>
            {input('target', 'text')}
          </FormField>
        )}
        <FormField label="Method" name="method" error={errors.method}>
          <select value={draft.method} data-testid="run-method" onChange={(event) => onDraft({ method: event.target.value as ProfileDraft['method'] })}>
            {HTTP_METHODS.map((method) => (
              <option key={method}>{method}</option>
            ))}
          </select>
        </FormField>
        {inputField('Path', 'path', 'text')}
        {inputField('Request timeout (ms)', 'timeoutMs')}
        <FormField label="HTTP version" name="httpVersion" error={errors.httpVersion}>
          <select value={draft.httpVersion} data-testid="run-http-version" onChange={(event) => onDraft({ httpVersion: event.target.value as ProfileDraft['httpVersion'] })}>
            <option value="1.1">HTTP/1.1 (keep-alive)</option>
            <option value="1.0">HTTP/1.0 (a connection per request, as ab)</option>
          </select>
        </FormField>
      </div>
      <div className="grid">
        <FormField label="Model" name="model" error={undefined}>
          <select value={draft.model} data-testid="run-model" onChange={(event) => switchTo({ model: event.target.value as ProfileDraft['model'] })}>
            <option value="closed">Closed: fixed connections (wrk, ab)</option>
            <option value="open">Open: target rate (Gatling, loadtest --rps)</option>
          </select>
        </FormField>
        {draft.model === 'closed' ? (
          <>
            {inputField('Connections', 'connections')}
            {inputField('Pipelining', 'pipelining')}
            <FormField label="Stop after" name="closedStop" error={undefined}>
              <select value={draft.closedStop} data-testid="run-closedStop" onChange={(event) => onDraft({ closedStop: event.target.value as ProfileDraft['closedStop'] })}>
                <option value="duration">a duration</option>
                <option value="requests">a number of requests (ab -n)</option>
              </select>
            </FormField>
            {draft.closedStop === 'duration' ? inputField('Duration (s)', 'durationS') : inputField('Requests', 'requests')}
            <FormField label="At the request timeout" name="onTimeout" error={errors.onTimeout}>
              <select value={draft.onTimeout} data-testid="run-onTimeout" onChange={(event) => onDraft({ onTimeout: event.target.value as ProfileDraft['onTimeout'] })}>
                <option value="close">count a timeout, close the connection</option>
                <option value="wait">count a timeout, wait for the answer on it (wrk)</option>
              </select>
            </FormField>
            <FormField label="Think time per request" name="thinkKind" error={errors.thinkKind}>
              <select value={draft.thinkKind} data-testid="run-thinkKind" onChange={(event) => onDraft({ thinkKind: event.target.value as ProfileDraft['thinkKind'] })}>
                <option value="none">none: the next request at once</option>
                <option value="fixed">fixed (Gatling pause(d))</option>
                <option value="uniform">random between two bounds (siege -d, Gatling pause(min, max))</option>
              </select>
            </FormField>
            {draft.thinkKind === 'fixed' && inputField('Think pause (ms)', 'thinkMs')}
            {draft.thinkKind === 'uniform' && (
              <>
                {inputField('Shortest think pause (ms)', 'thinkMinMs')}
                {inputField('Longest think pause (ms)', 'thinkMaxMs')}
                {inputField('Round pauses to (ms; siege -d: 1000)', 'thinkRoundToMs')}
              </>
            )}
          </>
        ) : (
          <>
            <FormField label="Load" name="openKind" error={undefined}>
              <select value={draft.openKind} data-testid="run-openKind" onChange={(event) => switchTo({ openKind: event.target.value as ProfileDraft['openKind'] })}>
                <option value="rate">requests per second</option>
                <option value="requests">N requests over the duration</option>
              </select>
            </FormField>
            {draft.openKind === 'rate' ? inputField('Rate (requests/s)', 'rate') : inputField('Requests', 'openRequests')}
            {inputField('Duration (s)', 'openDurationS')}
            {inputField('Max connections (empty: as the rate needs)', 'openConnections')}
          </>
        )}
      </div>
      {capacity && (
        <Banner tone="warning" testId="run-capacity-warning">
          {capacity}
        </Banner>
      )}
      {sweepNote && (
        <Banner tone="warning" testId="run-sweep-cleared">
          {sweepNote}
        </Banner>
      )}
      <div className="grid">
        {inputField(sweepLabel, 'sweep', 'text')}
        {inputField('Warm-up (s, not counted)', 'warmupS')}
        {inputField('Pause between steps (s)', 'pauseS')}
        {inputField('Latency bands (ms)', 'bucketsMs', 'text')}
      </div>
      <details className="run-advanced">
        <summary>Headers and body</summary>
        <div className="grid">
          <FormField label="Headers (Name: value per line)" name="headers" error={errors.headers} wide>
            <textarea value={draft.headers} rows={3} data-testid="run-headers" onChange={(event) => onDraft({ headers: event.target.value })} />
          </FormField>
          <FormField label="Body" name="body" error={errors.body} wide>
            <textarea value={draft.body} rows={3} data-testid="run-body" onChange={(event) => onDraft({ body: event.target.value })} />
          </FormField>
        </div>
      </details>
    </fieldset>
  );
}
