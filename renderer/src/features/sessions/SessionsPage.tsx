// Sessions: the library of recorded experiments — each with its template and headline figures
// (requests/s, p99, errors + not sent), search and filter (template, host, date, tag), rename, notes
// and tags, duplicate as a new draft, delete with confirmation, replay through the live dashboard,
// and tick sessions to compare side by side. The row's lesser actions sit in a menu, so the table
// fits a 1280-pixel window with every column shown.

import { useMemo, useState } from 'react';
import { BEST_STEP_RULE, filterChoices, filterLibrary, headlineErrors, headlineStepText, parseTags, type LibraryEntry, type LibraryFilter } from '../../../../app/sessions/session-library.ts';
import { formatMs, formatValue } from '../../../../app/sessions/comparison-report.ts';
import { errorMessage, useApi } from '../../api-context.tsx';
import { ErrorBanner } from '../../common/Banner.tsx';
import { Page } from '../../common/Page.tsx';
import { TableHead } from '../../common/TableHead.tsx';
import { RowMenu } from '../../common/RowMenu.tsx';
import { loadSelection, saveSelection } from '../../common/compare-selection.ts';
import { useLibrary } from './use-library.ts';
import { restoreWizard, wizardFromSession } from '../plans/wizard-draft.ts';
import { ReplayView } from './ReplayView.tsx';
import { ImportResults } from './ImportResults.tsx';
import { ExportMenu } from './ExportMenu.tsx';

function SessionDetails({ entry, onSaved }: { entry: LibraryEntry; onSaved: () => void }) {
  const api = useApi();
  const [notes, setNotes] = useState(entry.notes);
  const [tags, setTags] = useState(entry.tags.join(', '));
  const [error, setError] = useState<string | null>(null);
  const save = async () => {
    try {
      await api.sessions.update({ id: entry.id, notes, tags: parseTags(tags) });
      setError(null);
      onSaved();
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };
  return (
    <div className="session-details" data-testid="session-details">
      <label className="field">
        Notes
        <textarea rows={3} value={notes} data-testid="session-notes" onChange={(event) => setNotes(event.target.value)} />
      </label>
      <label className="field">
        Tags (comma separated)
        <input value={tags} data-testid="session-tags" onChange={(event) => setTags(event.target.value)} />
      </label>
      {error && <div className="field-error">{error}</div>}
      <button type="button" className="primary" data-testid="session-save" onClick={() => void save()}>
        Save notes and tags
      </button>
      {entry.database && (
        <p className="muted small" data-testid="session-database">
          Database: {entry.database}
        </p>
      )}
      {entry.originSessionId !== null && <p className="muted small">Made from session #{entry.originSessionId}.</p>}
    </div>
  );
}

/** Requests/s, p99 and errors + not sent of the session's best run; a sweep says which step. */
function HeadlineCells({ entry }: { entry: LibraryEntry }) {
  const headline = entry.headline;
  if (!headline) {
    return (
      <td colSpan={3} className="muted small" data-testid="session-headline-none">
        {entry.importedFrom || entry.runCount === 0 ? 'no results' : 'no result recorded'}
      </td>
    );
  }
  const step = headlineStepText(headline);
  return (
    <>
      <td className="num" data-testid="session-rps">
        {formatValue({ unit: 'rps' }, headline.requestsPerSecond)}
        {step && (
          <div className="muted small" title={[BEST_STEP_RULE, ...(headline.saturation ?? [])].join(' ')} data-testid="session-best-of">
            {step}
          </div>
        )}
      </td>
      <td className="num" data-testid="session-p99">
        {headline.p99Us === null ? '—' : `${formatMs(headline.p99Us)} ms`}
      </td>
      <td className="num" data-testid="session-errors" title={`${headline.failed} failed (non-2xx, errors, timeouts)${headline.notSent === null ? '' : `, ${headline.notSent} not sent`}`}>
        {formatValue({ unit: 'count' }, headlineErrors(headline))}
      </td>
    </>
  );
}

export function SessionsPage() {
  const api = useApi();
  const { value: sessions, error, setError, reload } = useLibrary();
  const [filter, setFilter] = useState<LibraryFilter>({});
  const [renaming, setRenaming] = useState<{ id: number; name: string } | null>(null);
  const [confirmDelete, setConfirmDelete] = useState<number | null>(null);
  const [open, setOpen] = useState<number | null>(null);
  const [replaying, setReplaying] = useState<number | null>(null);
  const [selected, setSelected] = useState<number[]>(loadSelection);

  /** The wizard set up from a session; a draft has no runs of its own, so its original's tell the templates. */
  const openInWizard = async (id: number) => {
    const session = await api.sessions.get({ id });
    const runs = await api.runs.list({ sessionId: session.runCount === 0 && session.originSessionId ? session.originSessionId : id });
    const saved = await api.drafts.get({ key: 'wizard' });
    const draft = wizardFromSession(restoreWizard(saved.draft), session, runs);
    await api.drafts.save({ key: 'wizard', draft: draft as unknown as Record<string, unknown> });
    window.location.hash = '/wizard';
  };

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

  const choices = useMemo(() => filterChoices(sessions ?? []), [sessions]);
  const shown = useMemo(() => filterLibrary(sessions ?? [], filter), [sessions, filter]);
  const setField = (field: keyof LibraryFilter, value: string) => setFilter((current) => ({ ...current, [field]: value || undefined }));
  const toggle = (id: number) => {
    const next = selected.includes(id) ? selected.filter((other) => other !== id) : [...selected, id];
    setSelected(next);
    saveSelection(next);
  };
  const liveSelection = selected.filter((id) => sessions?.some((entry) => entry.id === id));

  if (replaying !== null) {
    return (
      <section className="page page-wide" data-testid="page-sessions">
        <ReplayView sessionId={replaying} onClose={() => setReplaying(null)} onRunAgain={() => (window.location.hash = '/run')} />
      </section>
    );
  }

  return (
    <Page
      id="sessions"
      title="Sessions"
      actions={
        <div className="actions">
          <ImportResults onImported={reload} onError={setError} />
          <button
            type="button"
            className="primary"
            data-testid="sessions-compare"
            disabled={liveSelection.length < 2}
            onClick={() => {
              saveSelection(liveSelection);
              window.location.hash = '/compare';
            }}
          >
            Compare {liveSelection.length} selected
          </button>
        </div>
      }
    >
      <div className="library-filters">
        <input className="search" type="search" placeholder="Search name, notes or tag" value={filter.text ?? ''} data-testid="sessions-search" onChange={(event) => setField('text', event.target.value)} />
        <select value={filter.template ?? ''} data-testid="sessions-filter-template" onChange={(event) => setField('template', event.target.value)}>
          <option value="">Any template</option>
          {choices.templates.map((value) => (
            <option key={value}>{value}</option>
          ))}
        </select>
        <select value={filter.host ?? ''} data-testid="sessions-filter-host" onChange={(event) => setField('host', event.target.value)}>
          <option value="">Any host</option>
          {choices.hosts.map((value) => (
            <option key={value}>{value}</option>
          ))}
        </select>
        <select value={filter.tag ?? ''} data-testid="sessions-filter-tag" onChange={(event) => setField('tag', event.target.value)}>
          <option value="">Any tag</option>
          {choices.tags.map((value) => (
            <option key={value}>{value}</option>
          ))}
        </select>
        <label>
          From <input type="date" value={filter.from ?? ''} data-testid="sessions-filter-from" onChange={(event) => setField('from', event.target.value)} />
        </label>
        <label>
          To <input type="date" value={filter.to ?? ''} data-testid="sessions-filter-to" onChange={(event) => setField('to', event.target.value)} />
        </label>
      </div>
      <ErrorBanner error={error} />
      {sessions === null ? (
        <p className="hint">Loading…</p>
      ) : shown.length === 0 ? (
        <div className="empty" data-testid="sessions-empty">
          {sessions.length > 0 ? 'No session matches these filters.' : 'No sessions yet. A session is recorded each time you run load on the Run page.'}
        </div>
      ) : (
        <table className="table" data-testid="sessions-table">
          <TableHead columns={['', 'Name', 'Status', 'Template', 'Hosts', 'Requests/s', 'p99', 'Errors + not sent', 'Created', '']} />
          <tbody>
            {shown.flatMap((session) => [
              <tr key={session.id} data-testid="session-row" data-session={session.id}>
                <td>
                  <input type="checkbox" aria-label={`Compare ${session.name}`} checked={selected.includes(session.id)} data-testid="session-select" onChange={() => toggle(session.id)} />
                </td>
                <td className="strong wrap">
                  {renaming?.id === session.id ? (
                    <form
                      onSubmit={(event) => {
                        event.preventDefault();
                        void act(() => api.sessions.rename({ id: session.id, name: renaming.name }));
                      }}
                    >
                      <input autoFocus value={renaming.name} data-testid="session-rename-input" onChange={(event) => setRenaming({ id: session.id, name: event.target.value })} />
                    </form>
                  ) : (
                    <span data-testid="session-name">{session.name}</span>
                  )}
                  {session.tags.length > 0 && (
                    <div className="muted small" data-testid="session-tag-list">
                      {session.tags.join(', ')}
                    </div>
                  )}
                </td>
                <td>{session.status}</td>
                <td className="wrap" data-testid="session-templates">{session.importedFrom ? <span className="muted">imported from {session.importedFrom}</span> : session.templates.join(', ') || '—'}</td>
                <td className="small">
                  {session.clientHost ?? '—'} → {session.serverHost ?? '—'}
                </td>
                <HeadlineCells entry={session} />
                <td className="small">{new Date(session.createdAt).toLocaleString()}</td>
                <td className="row-actions">
                  {confirmDelete === session.id ? (
                    <>
                      <span>Delete with all its runs?</span>
                      <button type="button" className="danger" data-testid="session-delete-confirm" onClick={() => void act(() => api.sessions.delete({ id: session.id }))}>
                        Delete
                      </button>
                      <button type="button" onClick={() => setConfirmDelete(null)}>
                        Keep
                      </button>
                    </>
                  ) : (
                    <>
                      <button
                        type="button"
                        data-testid="session-replay"
                        disabled={session.runCount === 0 || !!session.importedFrom}
                        title={session.importedFrom ? 'An imported session has no load profile to replay' : undefined}
                        onClick={() => setReplaying(session.id)}
                      >
                        Replay
                      </button>
                      <RowMenu label={`More actions for ${session.name}`} testId="session-more">
                        <button type="button" role="menuitem" data-testid="session-details-toggle" onClick={() => setOpen(open === session.id ? null : session.id)}>
                          Notes and tags
                        </button>
                        <button type="button" role="menuitem" data-testid="session-rename" onClick={() => setRenaming({ id: session.id, name: session.name })}>
                          Rename
                        </button>
                        <button type="button" role="menuitem" data-testid="session-wizard" title="Set the wizard up with this session's hosts, templates and profile" onClick={() => void act(() => openInWizard(session.id))}>
                          Open in wizard
                        </button>
                        <button type="button" role="menuitem" data-testid="session-duplicate" onClick={() => void act(() => api.sessions.duplicate({ id: session.id }))}>
                          Duplicate
                        </button>
                        <ExportMenu source={{ sessionId: session.id }} testId="session-export" />
                        <button type="button" role="menuitem" className="danger-text" data-testid="session-delete" onClick={() => setConfirmDelete(session.id)}>
                          Delete…
                        </button>
                      </RowMenu>
                    </>
                  )}
                </td>
              </tr>,
              open === session.id ? (
                <tr key={`${session.id}-details`} className="details-row">
                  <td colSpan={10}>
                    <SessionDetails entry={session} onSaved={reload} />
                  </td>
                </tr>
              ) : null,
            ])}
          </tbody>
        </table>
      )}
    </Page>
  );
}
