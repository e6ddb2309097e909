// A preset's network side in a plan (the Presets page and the wizard's preset step): the interface
// and why it was chosen, its root qdisc now, each setting current → planned, and the tc command
// apply runs.

import type { PresetPlan } from '../../../../app/presets/preset-plan.ts';
import { TableHead } from '../../common/TableHead.tsx';

type NetworkPlan = NonNullable<PresetPlan['network']>;

function Setting({ text, none }: { text: string | null; none: string }) {
  return text === null ? <span className="muted">{none}</span> : <span className="mono">{text}</span>;
}

export function NetworkPlanView({ network }: { network: NetworkPlan }) {
  return (
    <div data-testid="plan-network" data-interface={network.interface} data-action={network.action}>
      <h3>Network (tc on {network.interface})</h3>
      <p className="hint">
        <span className="mono">{network.interface}</span>: {network.how}. Its root qdisc now: <span className="mono">{network.current}</span>.
      </p>
      {network.rows.length > 0 && (
        <table className="table compact" data-testid="plan-network-table">
          <TableHead columns={['Setting', 'Current', 'New', 'Change']} />
          <tbody>
            {network.rows.map((row) => (
              <tr key={row.setting} data-testid="plan-network-row" data-setting={row.setting} data-change={row.change}>
                <td>{row.label}</td>
                <td>
                  <Setting text={row.current} none="not shaped" />
                </td>
                <td>
                  <Setting text={row.next} none="none (the interface's own qdisc again)" />
                </td>
                <td>
                  <span className={`badge change-${row.change}`}>{row.change === 'change' ? 'will change' : 'already set'}</span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {network.command ? (
        <p className="hint">
          Apply runs <span className="mono" data-testid="plan-network-command">{network.command}</span>
        </p>
      ) : (
        <p className="hint">No tc command to run: the interface is already as planned.</p>
      )}
    </div>
  );
}
