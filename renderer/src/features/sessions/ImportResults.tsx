// "Import results…": another load tool's results file (wrk, ab, k6, oha, vegeta, hey, JMeter) as a
// session marked "imported from <format>". The format is chosen first, then the file, which goes
// up in pieces (a request crosses the transport whole, and per-request files run to hundreds of
// MB) with its progress and a Cancel; Benchlab then reads and stores it. Any error shows in the
// page's banner; a line names the new session and its requests. With ab, the text report of the
// run that wrote a -g file may go beside it (its elapsed time makes the run's length exact).

import { useEffect, useRef, useState } from 'react';
import { IMPORT_FORMATS, IMPORTERS, type ImportFormat } from '../../../../app/sessions/importers/index.ts';
import { AB_REPORT_MAX_CHARS } from '../../../../app/sessions/sessions-contract.ts';
import { errorMessage, useApi } from '../../api-context.tsx';
import { FileInput } from '../../common/FileInput.tsx';

interface Progress {
  fileName: string;
  sent: number;
  size: number;
  phase: 'uploading' | 'cancelling' | 'storing';
}

const mebibytes = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

/**
 * A piece of the file as base64 of its bytes: the service keeps the exact bytes, so a character
 * split between two pieces is joined again there and the file reads as `benchlab import` reads it;
 * base64 is also the same size whatever the file holds (quotes and control characters in JSON
 * text would grow a piece past the transport's limit).
 */
function base64Of(piece: Blob, fileName: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = reader.result as string;
      resolve(url.slice(url.indexOf(',') + 1));
    };
    reader.onerror = () => reject(new Error(`${fileName} could not be read (${reader.error?.message ?? 'no reason given'}): choose it again`));
    reader.readAsDataURL(piece);
  });
}

export function ImportResults({ onImported, onError }: { onImported: () => void; onError: (message: string | null) => void }) {
  const api = useApi();
  const input = useRef<HTMLInputElement>(null);
  const reportInput = useRef<HTMLInputElement>(null);
  const [abReport, setAbReport] = useState<{ fileName: string; text: string } | null>(null);
  const cancelRequested = useRef(false);
  const [format, setFormat] = useState<ImportFormat>('wrk');
  const [progress, setProgress] = useState<Progress | null>(null);
  const [imported, setImported] = useState<string | null>(null);

  // Leaving the page cancels an upload under way: nothing else shows it, and it holds the service's one upload.
  useEffect(
    () => () => {
      cancelRequested.current = true;
    },
    [],
  );

  const importFile = async (file: File) => {
    cancelRequested.current = false;
    setImported(null);
    setProgress({ fileName: file.name, sent: 0, size: file.size, phase: 'uploading' });
    let uploadId: string | null = null;
    try {
      const report = format === 'ab' && abReport ? { abReport } : {};
      const upload = await api.sessions.importBegin({ fileName: file.name, format, size: file.size, ...report });
      uploadId = upload.uploadId;
      for (let offset = 0; offset < file.size && !cancelRequested.current; ) {
        const piece = file.slice(offset, offset + upload.chunkBytes);
        await api.sessions.importChunk({ uploadId, offset, data: await base64Of(piece, file.name) });
        offset += piece.size;
        const sent = offset;
        setProgress((current) => current && { ...current, sent });
      }
      if (cancelRequested.current) return;
      setProgress((current) => current && { ...current, phase: 'storing' });
      // Finishing ends the upload whatever its outcome: nothing left to cancel.
      const finishing = uploadId;
      uploadId = null;
      const session = await api.sessions.importFinish({ uploadId: finishing });
      onError(null);
      onImported();
      const [run] = await api.runs.list({ sessionId: session.id });
      setImported(`Imported “${session.name}”${run?.summary ? `: ${run.summary.requests.toLocaleString('en-US')} requests` : ''}.`);
    } catch (failure) {
      onError(errorMessage(failure));
    } finally {
      // A failed cancel needs no word: the service drops an upload a minute after its last piece.
      if (uploadId !== null) await api.sessions.importCancel({ uploadId }).catch(() => undefined);
      setProgress(null);
    }
  };

  if (progress) {
    const percent = progress.size === 0 ? 100 : Math.floor((progress.sent / progress.size) * 100);
    return (
      <span className="import-results" data-testid="sessions-import-progress" data-phase={progress.phase}>
        <progress max={100} value={progress.phase === 'storing' ? undefined : percent} aria-label={`Importing ${progress.fileName}`} />
        <span className="small" data-testid="sessions-import-progress-text">
          {progress.phase === 'storing'
            ? `Reading ${progress.fileName}…`
            : progress.phase === 'cancelling'
              ? 'Cancelling…'
              : `${mebibytes(progress.sent)} of ${mebibytes(progress.size)} MiB (${percent} %)`}
        </span>
        <button
          type="button"
          data-testid="sessions-import-cancel"
          disabled={progress.phase !== 'uploading'}
          title={progress.phase === 'storing' ? 'The file is read and stored at once, or not at all' : `Stop uploading ${progress.fileName}`}
          onClick={() => {
            cancelRequested.current = true;
            setProgress((current) => current && { ...current, phase: 'cancelling' });
          }}
        >
          Cancel
        </button>
      </span>
    );
  }

  return (
    <span className="import-results" data-testid="sessions-import">
      {imported && (
        <span className="muted small" role="status" data-testid="sessions-import-done">
          {imported}
        </span>
      )}
      <select value={format} aria-label="Format of the results file" title={IMPORTERS[format].accepts} data-testid="sessions-import-format" onChange={(event) => setFormat(event.target.value as ImportFormat)}>
        {IMPORT_FORMATS.map((value) => (
          <option key={value} value={value} title={IMPORTERS[value].accepts}>
            {value}
          </option>
        ))}
      </select>
      {format === 'ab' &&
        (abReport ? (
          <span className="small" data-testid="sessions-import-report">
            with the report {abReport.fileName}{' '}
            <button type="button" className="link" aria-label={`Import without the report ${abReport.fileName}`} data-testid="sessions-import-report-clear" onClick={() => setAbReport(null)}>
              ✕
            </button>
          </span>
        ) : (
          <button type="button" data-testid="sessions-import-report-button" title="ab's text report of the run that wrote the -g file: its elapsed time makes the run's length exact (optional)" onClick={() => reportInput.current?.click()}>
            ab report…
          </button>
        ))}
      <button type="button" data-testid="sessions-import-button" title={`Import ${IMPORTERS[format].accepts}`} onClick={() => input.current?.click()}>
        Import results…
      </button>
      <FileInput
        inputRef={reportInput}
        testId="sessions-import-report-file"
        onFile={(file) => {
          if (file.size > AB_REPORT_MAX_CHARS) return onError(`${file.name} is ${mebibytes(file.size)} MiB: ab's report is a page of text (at most ${AB_REPORT_MAX_CHARS / 1024} KiB); choose the text ab printed`);
          void file.text().then(
            (text) => {
              onError(null);
              setAbReport({ fileName: file.name, text });
            },
            (failure: unknown) => onError(`${file.name} could not be read (${errorMessage(failure)}): choose it again`),
          );
        }}
      />
      <FileInput inputRef={input} testId="sessions-import-file" onFile={(file) => void importFile(file)} />
    </span>
  );
}
