// Add/edit form for one host entry, validated as the user types with the same rules as the back end.

import { AUTH_KINDS, hostFieldErrors, type Host, type HostInput } from '../../../../app/hosts/hosts.ts';
import { FormActions } from '../../common/FormActions.tsx';
import { FormField } from '../../common/FormField.tsx';
import { useEditForm } from '../../common/use-edit-form.ts';

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
  const form = useEditForm(
    () => draftOf(props.host),
    (draft) => hostFieldErrors(inputOf(draft)),
    (draft) => props.onSave(inputOf(draft)),
  );
  const { draft, shown: visibleError } = form;
  const update = (field: keyof Draft, value: string) => form.change((current) => ({ ...current, [field]: value }), field);

  const field = (name: keyof Draft, input: React.ReactNode) => {
    const error = visibleError(name);
    return (
      <FormField label={FIELD_LABELS[name]!} name={name} error={error && `${FIELD_LABELS[name]} ${error}`} errorTestId={`host-error-${name}`}>
        {input}
      </FormField>
    );
  };

  const text = (name: keyof Draft, placeholder: string, extra: Partial<React.InputHTMLAttributes<HTMLInputElement>> = {}) => (
    <input
      data-testid={`host-${name}`}
      value={draft[name]}
      placeholder={placeholder}
      aria-invalid={visibleError(name) ? true : undefined}
      onChange={(event) => update(name, event.target.value)}
      onBlur={() => form.touch(name)}
      {...extra}
    />
  );

  return (
    <form className="card host-form" onSubmit={(event) => void form.submit(event)} noValidate data-testid="host-form">
      <h2>{props.host ? `Edit ${props.host.name}` : 'Add a host'}</h2>
      <div className="grid">
        {field('name', text('name', 'load-client-1', { autoFocus: true }))}
        {field('address', text('address', '10.0.0.2 or bench.example.org'))}
        {field('port', text('port', '22', { inputMode: 'numeric' }))}
        {field('user', text('user', 'ubuntu'))}
        <FormField label="Authentication" name="auth" error={undefined}>
          <select data-testid="host-auth" value={draft.auth} onChange={(event) => update('auth', event.target.value)}>
            {AUTH_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {kind === 'agent' ? 'ssh-agent' : kind === 'key' ? 'Key file' : 'Password (asked when connecting)'}
              </option>
            ))}
          </select>
        </FormField>
        {draft.auth === 'key' && field('keyPath', text('keyPath', '~/.ssh/id_ed25519'))}
        <FormField label="Jump host (ProxyJump)" name="jumpHostId" error={undefined}>
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
        </FormField>
      </div>
      <FormActions testIdPrefix="host" saveLabel={props.host ? 'Save changes' : 'Add host'} saving={form.saving} error={form.serverError} onCancel={props.onCancel} />
    </form>
  );
}
