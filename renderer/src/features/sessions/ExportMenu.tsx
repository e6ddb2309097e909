// "Export ▾": a session's data as JSON, CSV per second or an HdrHistogram log (docs/exports.md),
// downloaded by the browser (or Electron's save dialog) from what `sessions.export` returns. Given
// several sessions (the Compare page's), each becomes its own file.

import { useState } from 'react';
import type { SessionExportFormat } from '../../../../app/sessions/sessions-contract.ts';
import { errorMessage, useApi } from '../../api-context.tsx';
import { saveFile } from '../../common/save-file.ts';

const FORMATS: ReadonlyArray<{ format: SessionExportFormat; label: string; title: string }> = [
  { format: 'json', label: 'JSON', title: 'The session, its runs with their summaries and every stored second' },
  { format: 'csv', label: 'CSV', title: 'One row per stored second and client' },
  { format: 'hdr-log', label: 'HDR log', title: 'The per-second latency histograms as an HdrHistogram interval log (µs)' },
];

/**
 * A native select rather than a drop-down of our own: its list opens above everything, where a
 * positioned one would be clipped by the table holding the row.
 */
export function ExportMenu({ sessionIds, testId, label = 'Export', disabled = false }: { sessionIds: readonly number[]; testId: string; label?: string; disabled?: boolean }) {
  const api = useApi();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const exportAs = async (format: SessionExportFormat) => {
    setBusy(true);
    setError(null);
    try {
      for (const id of sessionIds) {
        const file = await api.sessions.export({ id, format });
        saveFile(file.fileName, file.content, file.mediaType);
      }
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
        title={sessionIds.length > 1 ? 'One file per session' : undefined}
        disabled={disabled || busy || sessionIds.length === 0}
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
