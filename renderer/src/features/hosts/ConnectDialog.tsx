// Connecting a host as a careful SSH client would: asks for the password or key passphrase when
// needed, shows an unknown host key's fingerprint for acceptance, and refuses a changed key unless
// the user explicitly replaces the pinned one. A host that needs nothing typed (a key or the agent,
// as root, or this machine) connects at once; the form otherwise says how it signs in.

import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import type { ConnectSecrets } from '../../../../app/hosts/connections.ts';
import type { Host } from '../../../../app/hosts/hosts.ts';
import { errorMessage, useApi } from '../../api-context.tsx';
import { Banner, ErrorBanner } from '../../common/Banner.tsx';
import { FormField } from '../../common/FormField.tsx';

type Step =
  | { kind: 'secrets'; needPassword: boolean; needPassphrase: boolean; error: string | null }
  | { kind: 'unknown-key'; fingerprint: string }
  | { kind: 'changed-key'; fingerprint: string; pinned: string }
  | { kind: 'working' }
  | { kind: 'error'; message: string };

/** How the dialog signs in, in words: what it asks for and why, or that nothing needs typing. */
function signsInWith(host: Host, step: Extract<Step, { kind: 'secrets' }>): string {
  const as = `${host.user}@${host.address}`;
  if (step.needPassword) return `Signs in as ${as} with a password.`;
  const key = host.auth === 'key' ? `the key ${host.keyPath ?? ''}` : 'the SSH agent';
  if (step.needPassphrase) return `Signs in as ${as} with ${key}, which is protected by a passphrase.`;
  return `Signs in as ${as} with ${key}: nothing to type. The sudo password is asked only for presets, which change system settings as root.`;
}

function errorDetails(error: unknown): { code?: string; details?: Record<string, string> } {
  return typeof error === 'object' && error !== null ? (error as { code?: string; details?: Record<string, string> }) : {};
}

export function ConnectDialog(props: { host: Host; onDone: () => void }) {
  const { host } = props;
  const api = useApi();
  const askSudo = host.kind === 'ssh' && host.user !== 'root';
  // Nothing to ask before trying: connect at once (a passphrase the key turns out to need is asked then).
  const nothingToAsk = host.auth !== 'password' && !askSudo;
  const [step, setStep] = useState<Step>(nothingToAsk ? { kind: 'working' } : { kind: 'secrets', needPassword: host.auth === 'password', needPassphrase: false, error: null });
  const [secrets, setSecrets] = useState<ConnectSecrets>({});

  /** Connects with what was given; what the host answers decides the next step. */
  const connect = async (given: ConnectSecrets) => {
    try {
      await api.hosts.connect({ id: host.id, secrets: given });
      props.onDone();
    } catch (error) {
      const { code, details } = errorDetails(error);
      if (code === 'host_key_unknown' && details?.fingerprint) setStep({ kind: 'unknown-key', fingerprint: details.fingerprint });
      else if (code === 'host_key_changed' && details?.fingerprint) setStep({ kind: 'changed-key', fingerprint: details.fingerprint, pinned: details.pinned ?? '' });
      else if (code === 'passphrase_required') setStep({ kind: 'secrets', needPassword: false, needPassphrase: true, error: errorMessage(error) });
      else if (code === 'password_required') setStep({ kind: 'secrets', needPassword: true, needPassphrase: false, error: errorMessage(error) });
      else if (code === 'auth_failed' && (host.auth === 'password' || given.passphrase)) {
        setStep({ kind: 'secrets', needPassword: host.auth === 'password', needPassphrase: Boolean(given.passphrase), error: errorMessage(error) });
      } else setStep({ kind: 'error', message: errorMessage(error) });
    }
  };

  const attempt = (given: ConnectSecrets) => {
    setStep({ kind: 'working' });
    return connect(given);
  };

  // Nothing to type: the dialog opens connecting (its first step is 'working'), once.
  const started = useRef(false);
  useEffect(() => {
    if (!nothingToAsk || started.current) return;
    started.current = true;
    void connect({});
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const pinAndRetry = async (replace: boolean, fingerprint: string) => {
    try {
      if (replace) await api.hosts.replaceKey({ id: host.id, fingerprint });
      else await api.hosts.trustKey({ id: host.id, fingerprint });
      await attempt(secrets);
    } catch (error) {
      setStep({ kind: 'error', message: errorMessage(error) });
    }
  };

  const submitSecrets = (event: FormEvent) => {
    event.preventDefault();
    void attempt(secrets);
  };

  /** A password-like field; what is typed stays in this dialog's memory only. */
  const secretField = (label: string, testId: string, onValue: (value: string) => ConnectSecrets, autoFocus = false) => (
    <FormField label={label} name={testId} error={undefined}>
      <input type="password" autoFocus={autoFocus} data-testid={testId} onChange={(event) => setSecrets(onValue(event.target.value))} />
    </FormField>
  );

  /** The way on, then the way out ("Cancel" unless told). */
  const choices = (next: ReactNode, leave: ReactNode = 'Cancel', leaveTestId?: string) => (
    <div className="actions">
      {next}
      <button type="button" onClick={props.onDone} data-testid={leaveTestId}>
        {leave}
      </button>
    </div>
  );

  return (
    <div className="card connect-dialog" role="dialog" aria-label={`Connect ${host.name}`} data-testid="connect-dialog">
      <h2>Connect {host.name}</h2>
      {step.kind === 'working' && <p className="hint">Connecting to {host.address}…</p>}
      {step.kind === 'secrets' && (
        <form onSubmit={submitSecrets}>
          <ErrorBanner error={step.error} testId="connect-error" />
          <p data-testid="connect-how">{signsInWith(host, step)}</p>
          <div className="grid">
            {step.needPassword && secretField(`Password of ${host.user}`, 'connect-password', (password) => ({ ...secrets, password }), true)}
            {step.needPassphrase && secretField(`Passphrase of ${host.keyPath}`, 'connect-passphrase', (passphrase) => ({ ...secrets, passphrase }), true)}
            {askSudo && secretField('sudo password (optional, for presets)', 'connect-sudo', (sudoPassword) => ({ ...secrets, sudoPassword: sudoPassword || undefined }))}
          </div>
          <p className="hint">Passwords stay in memory for this session only; they are never stored or logged.</p>
          {choices(
            <button type="submit" className="primary" data-testid="connect-submit">
              Connect
            </button>,
          )}
        </form>
      )}
      {step.kind === 'unknown-key' && (
        <div data-testid="unknown-key">
          <p>
            First connection to <strong>{host.address}</strong>. Its host key fingerprint is:
          </p>
          <p className="fingerprint mono" data-testid="presented-fingerprint">
            {step.fingerprint}
          </p>
          <p className="hint">
            Check it on the host (<span className="mono">ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub</span>). Once trusted, it
            is pinned: a different key later is refused.
          </p>
          {choices(
            <button type="button" className="primary" data-testid="trust-key" onClick={() => void pinAndRetry(false, step.fingerprint)}>
              Trust and connect
            </button>,
          )}
        </div>
      )}
      {step.kind === 'changed-key' && (
        <div data-testid="changed-key">
          <Banner tone="error">
            The host key of {host.name} has changed. Nothing was sent to it. If the machine was reinstalled this is expected;
            otherwise someone may be intercepting the connection.
          </Banner>
          <table className="table compact">
            <tbody>
              <tr>
                <th>Pinned</th>
                <td className="mono">{step.pinned}</td>
              </tr>
              <tr>
                <th>Presented now</th>
                <td className="mono" data-testid="presented-fingerprint">
                  {step.fingerprint}
                </td>
              </tr>
            </tbody>
          </table>
          {choices(
            <button type="button" className="danger" data-testid="replace-key" onClick={() => void pinAndRetry(true, step.fingerprint)}>
              Replace pinned key and connect
            </button>,
          )}
        </div>
      )}
      {step.kind === 'error' && (
        <>
          <ErrorBanner error={step.message} testId="connect-error" />
          {choices(
            <button type="button" onClick={() => void attempt(secrets)}>
              Try again
            </button>,
            'Close',
            'connect-close',
          )}
        </>
      )}
    </div>
  );
}
