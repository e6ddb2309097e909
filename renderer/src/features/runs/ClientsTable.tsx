// The load clients of a session with several: each host, its share of the load (weight, and the
// connections or requests/s of the step it runs), the engine that runs on it, its clock's offset to
// Benchlab's with the uncertainty (flagged past the limit a coordinated start tolerates), how it
// fares, and what went wrong on it. Live on the Run page and in replay (from what the session stored).

import { CLOCK_UNCERTAINTY_LIMIT_MS, type ClockOffset } from '../../../../app/runs/clock-offset.ts';
import type { LiveClient } from '../../../../app/runs/runs.ts';
import { EngineLabel } from './EngineLabel.tsx';

function shareText(client: LiveClient, totalWeight: number): string {
  const share = totalWeight > 0 ? `${Math.round((client.weight / totalWeight) * 100)} %` : '–';
  const load = client.connections !== null ? `${client.connections} connections` : client.rate !== null ? `${Math.round(client.rate)} req/s` : null;
  return `${share} (weight ${client.weight}${client.cores !== null && client.weight === client.cores ? ': its cores' : ''})${load ? ` · ${load}` : ''}`;
}

const ms = (value: number) => (Math.abs(value) >= 100 ? value.toFixed(0) : Math.abs(value) >= 1 ? value.toFixed(2) : value.toFixed(3));

function clockText(clock: ClockOffset): string {
  return `${clock.offsetMs >= 0 ? '+' : '−'}${ms(Math.abs(clock.offsetMs))} ms ± ${ms(clock.uncertaintyMs)} ms`;
}

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
              <td data-testid="run-clients-share">{shareText(client, totalWeight)}</td>
              <td>
                <EngineLabel engine={client.engine} testId="run-clients-engine" />
              </td>
              <td
                className={loose ? 'field-error' : undefined}
                data-testid="run-clients-clock"
                title={client.clock ? `${client.clock.probes} probes, the kept round trip ${ms(client.clock.rttMs)} ms${loose ? `; over the ${CLOCK_UNCERTAINTY_LIMIT_MS} ms a coordinated start tolerates` : ''}` : undefined}
              >
                {client.clock ? clockText(client.clock) : <span className="muted">not measured</span>}
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
