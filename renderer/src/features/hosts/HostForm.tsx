// Add/edit form for one host entry, validated as the user types with the same rules as the back end.

import { useState, type FormEvent } from 'react';
import { AUTH_KINDS, hostFieldErrors, type Host, type HostInput } from '../../../../app/hosts/hosts.ts';
import { errorMessage } from '../../api-context.tsx';
import { ErrorBanner } from '../../common/Banner.tsx';

interface Draft {
  name: string;
  address: string;
  port: string;
  user: string;
  auth: HostInput['auth'];
  keyPath: string;
  jumpHostId: string;
}

const EMPTY: Draft = { name: '', address: '', port: '22', user: '', auth: 'agent', keyPath: '', jumpHostId: '' };

function draftOf(host: Host | null): Draft {
  if (!host) return EMPTY;
  return {
    name: host.name,
    address: host.address,
    port: String(host.port),
    user: host.user,
    auth: host.auth,
    keyPath: host.keyPath ?? '',
    jumpHostId: host.jumpHostId ? String(host.jumpHostId) : '',
  };
}

function inputOf(draft: Draft): HostInput {
  const port = draft.port.trim() === '' ? Number.NaN : Number(draft.port);
  return {
    name: draft.name,
    address: draft.address,
    port,
    user: draft.user,
    auth: draft.auth,
    ...(draft.auth === 'key' ? { keyPath: draft.keyPath } : {}),
    jumpHostId: draft.jumpHostId ? Number(draft.jumpHostId) : null,
  };
}

const FIELD_LABELS: Record<string, string> = { name: 'Name', address: 'Address', port: 'Port', user: 'User', keyPath: 'Key file' };

export function HostForm(props: { host: Host | null; hosts: Host[]; onSave: (input: HostInput) => Promise<void>; onCancel: () => void }) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(props.host));
  const [touched, setTouched] = useState<Set<string>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const [saving, setSaving] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);

  const errors = hostFieldErrors(inputOf(draft));
  const visibleError = (field: string) => (submitted || touched.has(field) ? errors[field] : undefined);

  const update = (field: keyof Draft, value: string) => {
    setDraft((current) => ({ ...current, [field]: value }));
    setTouched((current) => new Set(current).add(field));
    setServerError(null);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (Object.keys(errors).length > 0) return;
    setSaving(true);
    try {
      await props.onSave(inputOf(draft));
    } catch (error) {
      setServerError(errorMessage(error));
    } finally {
      setSaving(false);
    }
  };

  const field = (name: keyof Draft, input: React.ReactNode) => (
    <label className="field">
      <span>{FIELD_LABELS[name]}</span>
      {input}
      {visibleError(name) && (
        <span className="field-error" role="alert" data-testid={`host-error-${name}`}>
          {FIELD_LABELS[name]} {visibleError(name)}
        </span>
      )}
    </label>
  );

  const text = (name: keyof Draft, placeholder: string, extra: Partial<React.InputHTMLAttributes<HTMLInputElement>> = {}) => (
    <input
      data-testid={`host-${name}`}
      value={draft[name]}
      placeholder={placeholder}
      aria-invalid={visibleError(name) ? true : undefined}
      onChange={(event) => update(name, event.target.value)}
      onBlur={() => setTouched((current) => new Set(current).add(name))}
      {...extra}
    />
  );

  return (
    <form className="card host-form" onSubmit={submit} noValidate data-testid="host-form">
      <h2>{props.host ? `Edit ${props.host.name}` : 'Add a host'}</h2>
      <div className="grid">
        {field('name', text('name', 'load-client-1', { autoFocus: true }))}
        {field('address', text('address', '10.0.0.2 or bench.example.org'))}
        {field('port', text('port', '22', { inputMode: 'numeric' }))}
        {field('user', text('user', 'ubuntu'))}
        <label className="field">
          <span>Authentication</span>
          <select data-testid="host-auth" value={draft.auth} onChange={(event) => update('auth', event.target.value)}>
            {AUTH_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {kind === 'agent' ? 'ssh-agent' : kind === 'key' ? 'Key file' : 'Password (asked when connecting)'}
              </option>
            ))}
          </select>
        </label>
        {draft.auth === 'key' && field('keyPath', text('keyPath', '~/.ssh/id_ed25519'))}
        <label className="field">
          <span>Jump host (ProxyJump)</span>
          <select data-testid="host-jump" value={draft.jumpHostId} onChange={(event) => update('jumpHostId', event.target.value)}>
            <option value="">none — connect directly</option>
            {props.hosts
              .filter((other) => other.kind === 'ssh' && other.id !== props.host?.id)
              .map((other) => (
                <option key={other.id} value={other.id}>
                  {other.name}
                </option>
              ))}
          </select>
        </label>
      </div>
      <ErrorBanner error={serverError} testId="host-save-error" />
      <div className="actions">
        <button type="submit" className="primary" disabled={saving} data-testid="host-save">
          {saving ? 'Saving…' : props.host ? 'Save changes' : 'Add host'}
        </button>
        <button type="button" onClick={props.onCancel} data-testid="host-cancel">
          Cancel
        </button>
      </div>
    </form>
  );
}
