// The live summary in the seeds' columns, one row per step: requests/s, transfer/s, mean, std dev,
// p50/p75/p90/p99/p99.9/max, the latency bands and failures — always from added histograms.

import type { LiveStep } from '../../../../app/runs.ts';
import { bandLabels } from '../../../../app/run-summary-schema.ts';

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
          <th>failed</th>
        </tr>
      </thead>
      <tbody>
        {props.steps.map((step) => {
          const summary = step.summary;
          return (
            <tr key={step.index} data-testid="summary-row" data-step={step.index}>
              <td className="strong">{step.label}</td>
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
              <td>{ms(summary?.maxUs)}</td>
              {labels.map((label, i) => {
                const band = summary?.bands[i];
                return <td key={label}>{band ? `${band.count.toLocaleString('en-US')} (${(band.share * 100).toFixed(1)} %)` : '–'}</td>;
              })}
              <td data-testid="summary-failed" title={summary ? Object.entries(summary.errors).filter(([, count]) => count > 0).map(([kind, count]) => `${kind}: ${count}`).join(', ') : ''}>
                {summary ? summary.failed.toLocaleString('en-US') : '–'}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
