// The live summary in the seeds' columns, one row per step: requests/s, transfer/s, mean, std dev,
// p50/p75/p90/p99/p99.9/max, the latency bands (count, share beneath), failures, timeouts and
// requests not sent — always from added histograms — each step's books (every scheduled request accounted for), the
// server process's memory (RSS: its highest reading, lowest and last in the tooltip), and a step
// that was not steady marked, with the evidence as its tooltip. Every column fits a 1280 px window.

import type { LiveStep } from '../../../../app/runs/runs.ts';
import { bandLabels, type RunSummary } from '../../../../app/runs/run-summary-schema.ts';
import { MEMORY_MISSING } from '../../../../app/runs/server-memory.ts';
import { formatBytes } from '../../../../app/common/byte-size.ts';

function ms(us: number | null | undefined): string {
  if (us === null || us === undefined) return '–';
  const value = us / 1000;
  return value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2);
}

function rate(value: number): string {
  return value >= 100 ? Math.round(value).toLocaleString('en-US') : value.toFixed(1);
}

function bytesPerSecond(value: number): string {
  if (value >= 1e9) return `${(value / 1e9).toFixed(2)} GB/s`;
  if (value >= 1e6) return `${(value / 1e6).toFixed(1)} MB/s`;
  return `${(value / 1e3).toFixed(1)} KB/s`;
}

function count(value: number): string {
  return value.toLocaleString('en-US');
}

function kinds(counts: Record<string, number>): string {
  return Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([kind, n]) => `${kind}: ${count(n)}`)
    .join(', ');
}

/** `scheduled = answered + errors + timeouts + not sent`, written out, or why there is nothing to show. */
export function describeBooks(summary: RunSummary): string {
  const books = summary.books;
  if (!books) return 'recorded before Benchlab kept the books';
  const sum = `${count(books.scheduled)} scheduled = ${count(books.answered)} answered + ${count(books.errors)} errors + ${count(books.timeouts)} timeouts + ${count(books.notSent)} not sent`;
  if (books.inFlight > 0) return `${sum} + ${count(books.inFlight)} unresolved when the run ended`;
  return books.balanced ? sum : `${sum}: does NOT balance`;
}

/** The server's memory over a step in words, or why there is none (app/runs/server-memory.ts's wording). */
function memoryTitle(summary: RunSummary | null): string {
  if (!summary) return '';
  const memory = summary.serverMemory;
  if (!memory) return memory === null ? MEMORY_MISSING.noReadings : 'not in this summary';
  return `${formatBytes(memory.minBytes)} lowest, ${formatBytes(memory.maxBytes)} highest, ${formatBytes(memory.endBytes)} at the end`;
}

export function SummaryTable(props: { steps: LiveStep[]; bucketsMs: readonly number[] }) {
  const labels = bandLabels(props.bucketsMs);
  return (
    <table className="table compact summary-table" data-testid="run-summary">
      <thead>
        <tr>
          <th>Step</th>
          <th>Status</th>
          <th title="Responses per second over the measured time">req/s</th>
          <th>transfer/s</th>
          <th>mean ms</th>
          <th>std dev</th>
          <th>p50</th>
          <th>p75</th>
          <th>p90</th>
          <th>p99</th>
          <th>p99.9</th>
          <th>max</th>
          {labels.map((label) => (
            <th key={label}>{label}</th>
          ))}
          <th title="Non-2xx answers, connection errors and timeouts">failed</th>
          <th>timeouts</th>
          <th title="Scheduled but never sent: no free connection within the timeout, or the step ended">not sent</th>
          <th title="Every scheduled request ends in exactly one bucket">books</th>
          <th title="The server process's resident memory (RSS, with its children) over the step: highest reading; lowest and last in the cell's tooltip">server RSS</th>
        </tr>
      </thead>
      <tbody>
        {props.steps.map((step) => {
          const summary = step.summary;
          return (
            <tr key={step.index} data-testid="summary-row" data-step={step.index}>
              <td className="strong step-label">
                {step.label}
                {summary?.steadiness?.steady === false && (
                  <span className="not-steady" data-testid="summary-not-steady" title={summary.steadiness.message}>
                    not steady
                  </span>
                )}
              </td>
              <td>
                <span className={`badge step-${step.status}`}>{step.status}</span>
              </td>
              <td data-testid="summary-rps">{summary ? rate(summary.requestsPerSecond) : '–'}</td>
              <td>{summary ? bytesPerSecond(summary.bytesPerSecond) : '–'}</td>
              <td>{ms(summary?.meanUs)}</td>
              <td>{ms(summary?.stdDevUs)}</td>
              <td data-testid="summary-p50">{ms(summary?.p50Us)}</td>
              <td>{ms(summary?.p75Us)}</td>
              <td>{ms(summary?.p90Us)}</td>
              <td data-testid="summary-p99">{ms(summary?.p99Us)}</td>
              <td>{ms(summary?.p999Us)}</td>
              <td data-testid="summary-max">{ms(summary?.maxUs)}</td>
              {labels.map((label, i) => {
                const band = summary?.bands[i];
                return (
                  <td key={label}>
                    {band ? (
                      <>
                        {band.count.toLocaleString('en-US')}
                        <span className="share">{(band.share * 100).toFixed(1)} %</span>
                      </>
                    ) : (
                      '–'
                    )}
                  </td>
                );
              })}
              <td data-testid="summary-failed" title={summary ? kinds({ non2xx: summary.non2xx, ...summary.errors }) : ''}>
                {summary ? count(summary.failed) : '–'}
              </td>
              <td data-testid="summary-timeouts">{summary ? count(summary.errors.timeout ?? 0) : '–'}</td>
              <td data-testid="summary-not-sent" title={summary ? kinds(summary.notSent) : ''}>
                {summary?.books ? count(summary.books.notSent) : '–'}
              </td>
              <td data-testid="summary-books" title={summary ? describeBooks(summary) : ''}>
                {!summary ? '–' : !summary.books ? 'n/a' : summary.books.balanced ? (summary.books.inFlight > 0 ? `${count(summary.books.inFlight)} in flight` : '✓') : '✗'}
              </td>
              <td data-testid="summary-memory" title={memoryTitle(summary)}>
                {summary?.serverMemory ? formatBytes(summary.serverMemory.maxBytes) : '–'}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
