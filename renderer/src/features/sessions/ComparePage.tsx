// Compare: pick 2..N sessions from the library (or arrive with those ticked on the Sessions page),
// and within a sweep the steps (runs) to keep, open the comparison, and export it: a PDF with a
// title and notes (downloaded by the browser in web mode, saved where the desktop app's dialog
// says, a copy kept in the data dir either way) and its data as one file of each kind.

import { useCallback, useEffect, useRef, useState } from 'react';
import type { CompareSelection, PdfExport } from '../../../../app/sessions/sessions-contract.ts';
import type { Comparison } from '../../../../app/sessions/comparison.ts';
import type { StoredRun } from '../../../../app/runs/runs.ts';
import { filterLibrary } from '../../../../app/sessions/session-library.ts';
import { errorMessage, useApi, useConnection } from '../../api-context.tsx';
import { Banner, ErrorBanner } from '../../common/Banner.tsx';
import { Page } from '../../common/Page.tsx';
import { ComparisonView } from './ComparisonView.tsx';
import { PublishedBySeed } from './PublishedBySeed.tsx';
import { ExportMenu } from './ExportMenu.tsx';
import { loadSelection, saveSelection } from '../../common/compare-selection.ts';
import { saveFile } from '../../common/save-file.ts';
import { useLibrary } from './use-library.ts';
import { plural } from '../../../../app/common/plural.ts';

function stepLabel(run: StoredRun): string {
  return typeof run.step.label === 'string' ? run.step.label : `run ${run.ordinal}`;
}

export function ComparePage() {
  const api = useApi();
  const link = useConnection();
  const { value: library, error: libraryError } = useLibrary();
  const [selected, setSelected] = useState<number[]>(loadSelection);
  const [search, setSearch] = useState('');
  const [title, setTitle] = useState('');
  const [notes, setNotes] = useState('');
  const [runsBySession, setRunsBySession] = useState<Map<number, StoredRun[]>>(new Map());
  /** Runs the user left out; every run of the chosen sessions is compared unless listed here. */
  const [leftOut, setLeftOut] = useState<Set<number>>(new Set());
  const [comparison, setComparison] = useState<Comparison | null>(null);
  /** What the shown comparison was opened with: the exports export exactly that. */
  const [opened, setOpened] = useState<CompareSelection | null>(null);
  const [busy, setBusy] = useState<'opening' | 'exporting' | null>(null);
  const [exported, setExported] = useState<PdfExport | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (link !== 'connected') return;
    for (const id of selected) {
      if (runsBySession.has(id)) continue;
      api.runs.list({ sessionId: id }).then(
        (runs) => setRunsBySession((current) => new Map(current).set(id, runs)),
        () => setRunsBySession((current) => new Map(current).set(id, [])),
      );
    }
  }, [api, link, selected, runsBySession]);

  const chosenRuns = selected.flatMap((id) => runsBySession.get(id) ?? []);
  const runsKnown = selected.every((id) => runsBySession.has(id));
  const runIds = leftOut.size > 0 ? chosenRuns.filter((run) => !leftOut.has(run.id)).map((run) => run.id) : undefined;
  const leftOutCount = chosenRuns.filter((run) => leftOut.has(run.id)).length;
  const toggleRun = (id: number) =>
    setLeftOut((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  const open = useCallback(
    async (ids: number[]) => {
      setBusy('opening');
      setError(null);
      setExported(null);
      try {
        const selection: CompareSelection = { sessionIds: ids, ...(runIds ? { runIds } : {}), ...(title.trim() ? { title } : {}) };
        setComparison(await api.compare.open(selection));
        setOpened(selection);
      } catch (failure) {
        setComparison(null);
        setOpened(null);
        setError(errorMessage(failure));
      } finally {
        setBusy(null);
      }
    },
    [api, title, runIds],
  );

  // Arriving with a selection from the Sessions page (or a reload) opens it at once.
  const autoOpened = useRef(false);
  useEffect(() => {
    if (link !== 'connected' || autoOpened.current) return;
    autoOpened.current = true;
    if (selected.length < 2) return;
    api.compare.open({ sessionIds: selected }).then(
      (shown) => {
        setComparison(shown);
        setOpened({ sessionIds: selected });
      },
      (failure: unknown) => setError(errorMessage(failure)),
    );
  }, [api, link, selected]);

  const toggle = (id: number) => {
    const next = selected.includes(id) ? selected.filter((other) => other !== id) : [...selected, id];
    setSelected(next);
    saveSelection(next);
  };

  const exportPdf = async () => {
    if (!opened) return;
    setBusy('exporting');
    setError(null);
    try {
      const { title: _openedTitle, ...selection } = opened;
      const result = await api.compare.exportPdf({
        ...selection,
        ...(title.trim() ? { title } : {}),
        ...(notes.trim() ? { notes } : {}),
        deliver: api.transport === 'electron' ? 'save-dialog' : 'download',
      });
      if (result.content !== null) saveFile(result.fileName, Uint8Array.from(atob(result.content), (char) => char.charCodeAt(0)), 'application/pdf');
      setExported(result);
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(null);
    }
  };

  const shown = filterLibrary(library ?? [], { text: search });
  return (
    <Page
      id="compare"
      title="Compare"
      wide
      actions={
        <div className="actions">
          <button type="button" className="primary" data-testid="compare-open" disabled={selected.length < 2 || busy !== null || (leftOut.size > 0 && !runsKnown)} onClick={() => void open(selected)}>
            {busy === 'opening' ? 'Opening…' : `Compare ${plural(selected.length, 'session')}${leftOutCount > 0 ? ` (${plural(leftOutCount, 'step')} left out)` : ''}`}
          </button>
          <button type="button" data-testid="compare-export" disabled={!comparison || busy !== null} onClick={() => void exportPdf()}>
            {busy === 'exporting' ? 'Printing…' : 'Export PDF'}
          </button>
          <ExportMenu source={comparison && opened ? { comparison: opened } : null} testId="compare-export-data" label="Export data" />
        </div>
      }
    >
      <ErrorBanner error={error ?? libraryError} testId="compare-error" />
      {exported && (
        <Banner tone="info" role="status" testId="compare-exported">
          {exported.content !== null
            ? `PDF downloaded as ${exported.fileName}; `
            : exported.savedTo !== null
              ? `PDF saved to ${exported.savedTo}; `
              : ''}
          a copy is kept in <span className="mono" data-testid="compare-pdf-file">{exported.file}</span> ({Math.round(exported.bytes / 1024)} KiB, printed in {exported.renderMs} ms)
        </Banner>
      )}
      <div className="card compare-picker">
        <div className="grid">
          <label className="field">
            Title (PDF)
            <input value={title} placeholder="Comparison: A vs B" data-testid="compare-title" onChange={(event) => setTitle(event.target.value)} />
          </label>
          <label className="field">
            Notes (PDF)
            <textarea value={notes} rows={2} data-testid="compare-notes" onChange={(event) => setNotes(event.target.value)} />
          </label>
        </div>
        <input className="search" type="search" placeholder="Filter sessions" value={search} data-testid="compare-search" onChange={(event) => setSearch(event.target.value)} />
        {library === null ? (
          <p className="hint">Loading…</p>
        ) : library.length === 0 ? (
          <p className="hint" data-testid="compare-empty">
            No sessions yet: run load on the Run page first.
          </p>
        ) : (
          <ul className="compare-list">
            {shown.map((entry) => (
              <li key={entry.id}>
                <label>
                  <input type="checkbox" checked={selected.includes(entry.id)} data-testid={`compare-pick-${entry.id}`} onChange={() => toggle(entry.id)} /> <strong>{entry.name}</strong>{' '}
                  <span className="muted small">
                    {entry.status} · {plural(entry.runCount, 'run')} · {entry.templates.join(', ') || 'no template'} · {new Date(entry.createdAt).toLocaleString()}
                  </span>
                </label>
                {selected.includes(entry.id) && (runsBySession.get(entry.id)?.length ?? 0) > 1 && (
                  <div className="run-picks" data-testid={`compare-runs-${entry.id}`}>
                    {runsBySession.get(entry.id)!.map((run) => (
                      <label key={run.id} className="choice">
                        <input type="checkbox" checked={!leftOut.has(run.id)} data-testid={`compare-run-${run.id}`} data-step={stepLabel(run)} onChange={() => toggleRun(run.id)} />{' '}
                        {stepLabel(run)}
                        <span className="muted small"> {run.status}</span>
                      </label>
                    ))}
                  </div>
                )}
              </li>
            ))}
          </ul>
        )}
      </div>
      {comparison && <ComparisonView comparison={comparison} />}
      {comparison && <PublishedBySeed comparison={comparison} />}
    </Page>
  );
}
