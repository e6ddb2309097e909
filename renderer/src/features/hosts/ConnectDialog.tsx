// Connecting a host as a careful SSH client would: asks for the password or key passphrase when
// needed, shows an unknown host key's fingerprint for acceptance, and refuses a changed key unless
// the user explicitly replaces the pinned one.

import { useState, type FormEvent, type ReactNode } from 'react';
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

function errorDetails(error: unknown): { code?: string; details?: Record<string, string> } {
  return typeof error === 'object' && error !== null ? (error as { code?: string; details?: Record<string, string> }) : {};
}

export function ConnectDialog(props: { host: Host; onDone: () => void }) {
  const { host } = props;
  const api = useApi();
  const askSudo = host.kind === 'ssh' && host.user !== 'root';
  const [step, setStep] = useState<Step>({ kind: 'secrets', needPassword: host.auth === 'password', needPassphrase: false, error: null });
  const [secrets, setSecrets] = useState<ConnectSecrets>({});

  const attempt = async (given: ConnectSecrets) => {
    setStep({ kind: 'working' });
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
