// Each step's requests in ab's rows: connect, waiting (to the first byte), processing and total
// (the headline), with min, mean, std dev, median, p99 and max, and under each step what its
// latency includes (the connect, when requests opened their own connections; not, with keep-alive).

import type { LiveStep } from '../../../../app/runs/runs.ts';
import { describeLatencyIncludes, phaseRows, type LoadModel } from '../../../../app/runs/latency-includes.ts';

function ms(us: number | null): string {
  if (us === null) return '–';
  const value = us / 1000;
  return value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2);
}

export function PhasesTable(props: { steps: LiveStep[]; model: LoadModel }) {
  const measured = props.steps.filter((step) => step.summary?.phases);
  if (measured.length === 0) return null;
  return (
    <table className="table compact summary-table" data-testid="run-phases">
      <thead>
        <tr>
          <th>Step</th>
          <th title="As ab's report: connect, waiting (to the first byte), processing, total">phase</th>
          <th title="Connections established (connect) or answers">count</th>
          <th>min ms</th>
          <th>mean</th>
          <th>std dev</th>
          <th>median</th>
          <th>p99</th>
          <th>max</th>
        </tr>
      </thead>
      {measured.map((step) => {
        const phases = step.summary!.phases!;
        const rows = phaseRows(phases);
        return (
          <tbody key={step.index} data-testid="phases-step" data-step={step.index}>
            {rows.map((row, i) => (
              <tr key={row.key} data-testid={`phases-${row.key}`}>
                {i === 0 && (
                  <td className="strong" rowSpan={rows.length}>
                    {step.label}
                  </td>
                )}
                <td title={row.means}>{row.label}</td>
                <td>{row.stats.count.toLocaleString('en-US')}</td>
                <td>{ms(row.stats.minUs)}</td>
                <td>{ms(row.stats.meanUs)}</td>
                <td>{ms(row.stats.stdDevUs)}</td>
                <td data-testid={`phases-${row.key}-p50`}>{ms(row.stats.p50Us)}</td>
                <td>{ms(row.stats.p99Us)}</td>
                <td>{ms(row.stats.maxUs)}</td>
              </tr>
            ))}
            <tr>
              <td colSpan={9} className="muted small wrap" data-testid="phases-includes">
                {describeLatencyIncludes(phases, props.model)}
              </td>
            </tr>
          </tbody>
        );
      })}
    </table>
  );
}
