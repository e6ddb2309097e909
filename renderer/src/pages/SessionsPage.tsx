// Sessions: every recorded experiment, searchable, renamable and deletable (with confirmation).

import { useCallback, useEffect, useState } from 'react';
import type { SessionSummary } from '../../../app/sessions.ts';
import { errorMessage, useApi, useConnection } from '../api-context.tsx';

export function SessionsPage() {
  const api = useApi();
  const connection = useConnection();
  const [search, setSearch] = useState('');
  const [sessions, setSessions] = useState<SessionSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [renaming, setRenaming] = useState<{ id: number; name: string } | null>(null);
  const [confirmDelete, setConfirmDelete] = useState<number | null>(null);

  const reload = useCallback(() => {
    api.sessions.list(search.trim() ? { search } : {}).then(
      (list) => {
        setSessions(list);
        setError(null);
      },
      (failure: unknown) => setError(errorMessage(failure)),
    );
  }, [api, search]);

  useEffect(() => {
    if (connection === 'connected') reload();
  }, [connection, reload]);

  const act = async (work: () => Promise<unknown>) => {
    try {
      await work();
      setRenaming(null);
      setConfirmDelete(null);
      reload();
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };

  return (
    <section className="page" data-testid="page-sessions">
      <header className="page-header">
        <h1>Sessions</h1>
        <input
          className="search"
          type="search"
          placeholder="Search by name or tag"
          value={search}
          data-testid="sessions-search"
          onChange={(event) => setSearch(event.target.value)}
        />
      </header>
      {error && (
        <div className="banner error" role="alert">
          {error}
        </div>
      )}
      {sessions === null ? (
        <p className="hint">Loading…</p>
      ) : sessions.length === 0 ? (
        <div className="empty" data-testid="sessions-empty">
          {search.trim()
            ? 'No session matches this search.'
            : 'No sessions yet. A session is recorded each time you run load; the Run page is not built yet.'}
        </div>
      ) : (
        <table className="table" data-testid="sessions-table">
          <thead>
            <tr>
              <th>Name</th>
              <th>Status</th>
              <th>Runs</th>
              <th>Created</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {sessions.map((session) => (
              <tr key={session.id} data-testid="session-row">
                <td className="strong">
                  {renaming?.id === session.id ? (
                    <form
                      onSubmit={(event) => {
                        event.preventDefault();
                        void act(() => api.sessions.rename({ id: session.id, name: renaming.name }));
                      }}
                    >
                      <input
                        autoFocus
                        value={renaming.name}
                        data-testid="session-rename-input"
                        onChange={(event) => setRenaming({ id: session.id, name: event.target.value })}
                      />
                    </form>
                  ) : (
                    session.name
                  )}
                </td>
                <td>{session.status}</td>
                <td>{session.runCount}</td>
                <td>{new Date(session.createdAt).toLocaleString()}</td>
                <td className="row-actions">
                  {confirmDelete === session.id ? (
                    <>
                      <span>Delete with all its runs?</span>
                      <button type="button" className="danger" onClick={() => void act(() => api.sessions.delete({ id: session.id }))}>
                        Delete
                      </button>
                      <button type="button" onClick={() => setConfirmDelete(null)}>
                        Keep
                      </button>
                    </>
                  ) : (
                    <>
                      <button type="button" onClick={() => setRenaming({ id: session.id, name: session.name })}>
                        Rename
                      </button>
                      <button type="button" onClick={() => setConfirmDelete(session.id)}>
                        Delete
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
