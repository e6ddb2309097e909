// The load clients of a session with several: each host, its share of the load (weight, and the
// connections or requests/s of the step it runs), the engine that runs on it, its clock's offset to
// Benchlab's with the uncertainty (flagged past the limit a coordinated start tolerates), how it
// fares, and what went wrong on it. Live on the Run page and in replay (from what the session stored).

import { CLOCK_UNCERTAINTY_LIMIT_MS } from '../../../../app/runs/clock-offset.ts';
import type { LiveClient } from '../../../../app/runs/runs.ts';
import { clientShareText, clockOffsetText, millis } from './client-texts.ts';
import { EngineLabel } from './EngineLabel.tsx';

export function ClientsTable({ clients }: { clients: readonly LiveClient[] }) {
  if (clients.length < 2) return null;
  const totalWeight = clients.reduce((sum, client) => sum + client.weight, 0);
  return (
    <table className="table compact clients-table" data-testid="run-clients">
      <thead>
        <tr>
          <th>Client</th>
          <th>Share of the load</th>
          <th>Engine</th>
          <th title="The client's clock minus Benchlab's, ± how well it is known">Clock offset</th>
          <th>Status</th>
          <th>Problem</th>
        </tr>
      </thead>
      <tbody>
        {clients.map((client) => {
          const loose = client.clock !== null && client.clock.uncertaintyMs > CLOCK_UNCERTAINTY_LIMIT_MS;
          return (
            <tr key={client.index} data-testid="run-clients-row" data-client={client.name} data-status={client.status}>
              <td className="strong">{client.name}</td>
              <td data-testid="run-clients-share">{clientShareText(client, totalWeight)}</td>
              <td>
                <EngineLabel engine={client.engine} testId="run-clients-engine" />
              </td>
              <td
                className={loose ? 'field-error' : undefined}
                data-testid="run-clients-clock"
                title={client.clock ? `${client.clock.probes} probes, the kept round trip ${millis(client.clock.rttMs)} ms${loose ? `; over the ${CLOCK_UNCERTAINTY_LIMIT_MS} ms a coordinated start tolerates` : ''}` : undefined}
              >
                {client.clock ? clockOffsetText(client.clock) : <span className="muted">not measured</span>}
              </td>
              <td>
                <span className={`badge ${client.status === 'failed' || client.status === 'lost' ? 'failed' : client.status === 'running' ? 'connected' : client.status}`} data-testid="run-clients-status">
                  {client.status}
                </span>
              </td>
              <td data-testid="run-clients-problem">{client.problem ? `at ${client.problem.atS.toFixed(1)} s: ${client.problem.message}` : ''}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
