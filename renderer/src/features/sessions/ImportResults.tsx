// "Import results…": another load tool's results file (wrk, ab, k6, oha, vegeta, hey, JMeter) as a
// session marked "imported from <format>". The format is chosen first, then the file; the page
// shows any error in its banner. One request carries the file, so the page takes files up to the
// transport's size and points to `benchlab import` for larger ones (which streams them).

import { useRef, useState } from 'react';
import { IMPORT_FORMATS, IMPORTERS, MAX_IMPORT_TEXT_BYTES, type ImportFormat } from '../../../../app/sessions/importers/index.ts';
import { errorMessage, useApi } from '../../api-context.tsx';

const megabytes = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

export function ImportResults({ onImported, onError }: { onImported: () => void; onError: (message: string | null) => void }) {
  const api = useApi();
  const input = useRef<HTMLInputElement>(null);
  const [format, setFormat] = useState<ImportFormat>('wrk');
  const [busy, setBusy] = useState(false);

  const importFile = async (file: File) => {
    if (file.size > MAX_IMPORT_TEXT_BYTES) {
      onError(`${file.name} is ${megabytes(file.size)} MiB: this page imports files up to ${megabytes(MAX_IMPORT_TEXT_BYTES)} MiB; import it with \`benchlab import ${file.name} --format ${format}\`.`);
      return;
    }
    setBusy(true);
    try {
      await api.sessions.import({ fileName: file.name, text: await file.text(), format });
      onError(null);
      onImported();
    } catch (failure) {
      onError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <span className="import-results" data-testid="sessions-import">
      <select value={format} aria-label="Format of the results file" title={IMPORTERS[format].accepts} data-testid="sessions-import-format" onChange={(event) => setFormat(event.target.value as ImportFormat)}>
        {IMPORT_FORMATS.map((value) => (
          <option key={value} value={value} title={IMPORTERS[value].accepts}>
            {value}
          </option>
        ))}
      </select>
      <button type="button" disabled={busy} data-testid="sessions-import-button" title={`Import ${IMPORTERS[format].accepts}`} onClick={() => input.current?.click()}>
        {busy ? 'Importing…' : 'Import results…'}
      </button>
      <input
        ref={input}
        type="file"
        hidden
        data-testid="sessions-import-file"
        onChange={(event) => {
          const file = event.target.files?.[0];
          // Cleared so that choosing the same file again (after fixing the format) fires again.
          event.target.value = '';
          if (file) void importFile(file);
        }}
      />
    </span>
  );
}
