// Hosts: the machines Benchlab may use, stored locally. Connecting over SSH comes with the hosts issue.

import { useCallback, useEffect, useState } from 'react';
import type { Host, HostInput } from '../../../app/hosts.ts';
import { errorMessage, useApi, useConnection } from '../api-context.tsx';
import { HostForm } from './HostForm.tsx';

type Editing = { mode: 'closed' } | { mode: 'add' } | { mode: 'edit'; host: Host };

export function HostsPage() {
  const api = useApi();
  const connection = useConnection();
  const [hosts, setHosts] = useState<Host[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [editing, setEditing] = useState<Editing>({ mode: 'closed' });
  const [confirmRemove, setConfirmRemove] = useState<number | null>(null);

  const reload = useCallback(() => {
    api.hosts.list().then(
      (list) => {
        setHosts(list);
        setError(null);
      },
      (failure: unknown) => setError(errorMessage(failure)),
    );
  }, [api]);

  useEffect(() => {
    if (connection === 'connected') reload();
  }, [connection, reload]);

  const save = async (input: HostInput) => {
    if (editing.mode === 'edit') await api.hosts.update({ id: editing.host.id, host: input });
    else await api.hosts.add(input);
    setEditing({ mode: 'closed' });
    reload();
  };

  const remove = async (host: Host) => {
    try {
      await api.hosts.remove({ id: host.id });
      setConfirmRemove(null);
      reload();
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };

  return (
    <section className="page" data-testid="page-hosts">
      <header className="page-header">
        <h1>Hosts</h1>
        {editing.mode === 'closed' && (
          <button className="primary" type="button" data-testid="host-add" onClick={() => setEditing({ mode: 'add' })}>
            Add host
          </button>
        )}
      </header>
      <p className="hint">
        The machines Benchlab drives: a load client and a server under test. Entries are stored on this computer; passwords
        never are.
      </p>
      {error && (
        <div className="banner error" role="alert" data-testid="hosts-error">
          {error}
        </div>
      )}
      {editing.mode !== 'closed' && (
        <HostForm
          key={editing.mode === 'edit' ? editing.host.id : 'new'}
          host={editing.mode === 'edit' ? editing.host : null}
          onSave={save}
          onCancel={() => setEditing({ mode: 'closed' })}
        />
      )}
      {hosts === null ? (
        <p className="hint">Loading…</p>
      ) : hosts.length === 0 ? (
        <div className="empty" data-testid="hosts-empty">
          No hosts yet. Add the machine that will generate load and the one that will serve it.
        </div>
      ) : (
        <table className="table" data-testid="hosts-table">
          <thead>
            <tr>
              <th>Name</th>
              <th>Address</th>
              <th>User</th>
              <th>Auth</th>
              <th>Host key</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {hosts.map((host) => (
              <tr key={host.id} data-testid="host-row" data-host-name={host.name}>
                <td className="strong">{host.name}</td>
                <td className="mono">
                  {host.address}:{host.port}
                </td>
                <td className="mono">{host.user}</td>
                <td>{host.auth === 'key' ? `key ${host.keyPath ?? ''}` : host.auth}</td>
                <td className="mono">{host.hostKeyFingerprint ?? <span className="muted">not pinned yet</span>}</td>
                <td className="row-actions">
                  {confirmRemove === host.id ? (
                    <>
                      <span>Remove {host.name}?</span>
                      <button type="button" className="danger" data-testid="host-remove-confirm" onClick={() => void remove(host)}>
                        Remove
                      </button>
                      <button type="button" onClick={() => setConfirmRemove(null)}>
                        Keep
                      </button>
                    </>
                  ) : (
                    <>
                      <button type="button" data-testid="host-edit" onClick={() => setEditing({ mode: 'edit', host })}>
                        Edit
                      </button>
                      <button type="button" data-testid="host-remove" onClick={() => setConfirmRemove(host.id)}>
                        Remove
                      </button>
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
