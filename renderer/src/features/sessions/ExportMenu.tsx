// "Export ▾": a session's data as JSON, CSV per second or an HdrHistogram log (docs/exports.md),
// downloaded by the browser (or Electron's save dialog) from what `sessions.export` returns; on the
// Compare page, the opened comparison as one file of each kind (`compare.export`: the per-second
// CSV of every compared run, the JSON with the headline, the runs' merged histograms as a log).

import { useState } from 'react';
import type { CompareSelection, SessionExportFormat } from '../../../../app/sessions/sessions-contract.ts';
import { errorMessage, useApi } from '../../api-context.tsx';
import { saveFile } from '../../common/save-file.ts';

const FORMATS: ReadonlyArray<{ format: SessionExportFormat; label: string; title: string }> = [
  { format: 'json', label: 'JSON', title: 'The session, its runs with their summaries and every stored second' },
  { format: 'csv', label: 'CSV', title: 'One row per stored second and client' },
  { format: 'hdr-log', label: 'HDR log', title: 'The latency histograms as an HdrHistogram log (µs): per second for a session, merged per run for a comparison' },
];

/** What is exported: one stored session, or an opened comparison (its selection). */
export type ExportSource = { sessionId: number } | { comparison: CompareSelection };

/**
 * A native select rather than a drop-down of our own: its list opens above everything, where a
 * positioned one would be clipped by the table holding the row.
 */
export function ExportMenu({ source, testId, label = 'Export', disabled = false }: { source: ExportSource | null; testId: string; label?: string; disabled?: boolean }) {
  const api = useApi();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const exportAs = async (format: SessionExportFormat) => {
    setBusy(true);
    setError(null);
    try {
      if (!source) return;
      const file = 'sessionId' in source ? await api.sessions.export({ id: source.sessionId, format }) : await api.compare.export({ ...source.comparison, format });
      saveFile(file.fileName, file.content, file.mediaType);
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <span className="export-menu" data-testid={testId}>
      <select
        value=""
        aria-label={label}
        title={source && 'comparison' in source ? 'The compared sessions in one file' : undefined}
        disabled={disabled || busy || source === null}
        data-testid={`${testId}-select`}
        onChange={(event) => {
          const chosen = FORMATS.find(({ format }) => format === event.target.value);
          if (chosen) void exportAs(chosen.format);
        }}
      >
        <option value="">{busy ? 'Exporting…' : label}</option>
        {FORMATS.map(({ format, label: formatLabel, title }) => (
          <option key={format} value={format} title={title} data-testid={`${testId}-${format}`}>
            {formatLabel}
          </option>
        ))}
      </select>
      {error && (
        <span className="field-error" role="alert" data-testid={`${testId}-error`}>
          {error}
        </span>
      )}
    </span>
  );
}
