// Compare's table for sessions that sent different requests: a row per endpoint (and step), a column
// per server, each cell its requests/s, p99, the server's peak memory and its GC (app/sessions/comparison-endpoints.ts).

import { useMemo } from 'react';
import { formatBytes } from '../../../../app/common/byte-size.ts';
import { buildEndpointTable, endpointGcText } from '../../../../app/sessions/comparison-endpoints.ts';
import { formatMs, formatValue } from '../../../../app/sessions/comparison-report.ts';
import type { Comparison } from '../../../../app/sessions/comparison.ts';

export function EndpointTable({ comparison }: { comparison: Comparison }) {
  const table = useMemo(() => buildEndpointTable(comparison), [comparison]);
  if (!table) return null;
  const stepped = table.rows.some((row) => row.step !== null);
  return (
    <section data-testid="compare-endpoints">
      <h2>Per endpoint</h2>
      <p className="hint">
        A row per endpoint, a column per server: requests/s, p99{table.memory ? ', the server’s peak memory (RSS)' : ''}
        {table.gc ? ', its share of the time in GC pauses and its highest heap after a GC' : ''} of its runs
        (the median where a server ran an endpoint more than once). Best requests/s and p99 of each row in bold.
      </p>
      <div className="table-scroll">
        <table className="table compact">
          <thead>
            <tr>
              <th>Endpoint</th>
              {stepped && <th>Step</th>}
              {table.servers.map((server) => (
                <th key={server.key} data-testid="compare-endpoint-server">
                  {server.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {table.rows.map((row) => (
              <tr key={`${row.endpoint} ${row.step ?? ''}`} data-testid="compare-endpoint-row" data-endpoint={row.endpoint}>
                <td>
                  <strong>{row.endpoint}</strong>
                  {row.endpoint !== row.request && <div className="muted small mono">{row.request}</div>}
                </td>
                {stepped && <td>{row.step}</td>}
                {row.cells.map((cell, index) => (
                  <td key={table.servers[index]!.key} data-testid="compare-endpoint-cell" data-server={table.servers[index]!.label}>
                    {cell === null ? (
                      <span className="muted">not run</span>
                    ) : (
                      <>
                        <div data-metric="rps" className={cell.bestRps ? 'best' : undefined}>
                          {cell.rps === null ? '—' : `${formatValue({ unit: 'rps' }, cell.rps)} req/s`}
                        </div>
                        <div data-metric="p99" className={cell.bestP99 ? 'best' : undefined}>
                          p99 {cell.p99Us === null ? '—' : `${formatMs(cell.p99Us)} ms`}
                        </div>
                        {table.memory && <div data-metric="rss">{cell.rssMaxBytes === null ? 'RSS —' : `RSS ${formatBytes(cell.rssMaxBytes)}`}</div>}
                        {table.gc && <div data-metric="gc">{endpointGcText(cell)}</div>}
                        {cell.runs !== 1 && <div className="muted small">{cell.runs === 0 ? 'not completed' : `median of ${cell.runs} runs`}</div>}
                      </>
                    )}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
