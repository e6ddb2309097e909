// The load clients of a run: one host or several, each with an optional weight (its share of the
// load relative to the others; the placeholder shows the default, the host's core count). A host is
// offered once: those picked in another row are greyed out. Used by the Run page and the wizard.

import type { ReactNode } from 'react';
import type { Host } from '../../../../app/hosts/hosts.ts';
import { MAX_RUN_CLIENTS } from '../../../../app/runs/runs-contract.ts';
import { FieldError, FormField } from '../../common/FormField.tsx';
import { NO_CLIENT, type ClientPick } from './client-picks.ts';
import { useCoreCounts } from './use-core-counts.ts';

export function ClientHostsField(props: {
  label: string;
  /** Prefix of the test ids: `<prefix>` for the first host, `<prefix>-<i>`, `<prefix>-weight-<i>`, `<prefix>-add`, `<prefix>-remove-<i>`. */
  testId: string;
  picks: ClientPick[];
  hosts: Host[];
  hostLabel: (host: Host) => string;
  errors: Record<string, string>;
  disabled?: boolean;
  onPicks: (picks: ClientPick[]) => void;
  /** Shown under each chosen host (its connection state in the wizard). */
  below?: (hostId: number, index: number) => ReactNode;
}) {
  const { picks, testId } = props;
  const cores = useCoreCounts(picks.map((pick) => pick.hostId));
  const several = picks.length > 1;
  const change = (index: number, pick: Partial<ClientPick>) => props.onPicks(picks.map((current, at) => (at === index ? { ...current, ...pick } : current)));
  return (
    <FormField group wide={several} label={props.label} name="clientHostId" error={props.errors.clientHostId}>
      {picks.map((pick, index) => (
        <div key={index} className="client-pick" data-testid={`${testId}-row`}>
          <div className="inline">
            <select
              value={pick.hostId ?? ''}
              disabled={props.disabled}
              aria-label={several ? `Client ${index + 1}` : undefined}
              data-testid={index === 0 ? testId : `${testId}-${index}`}
              onChange={(event) => change(index, { hostId: event.target.value ? Number(event.target.value) : null })}
            >
              <option value="">Choose…</option>
              {props.hosts.map((host) => (
                <option key={host.id} value={host.id} disabled={picks.some((other, at) => at !== index && other.hostId === host.id)}>
                  {props.hostLabel(host)}
                </option>
              ))}
            </select>
            {several && (
              <input
                className="client-weight"
                inputMode="decimal"
                value={pick.weight}
                disabled={props.disabled}
                aria-label={`Weight of client ${index + 1}`}
                title="Share of the load relative to the other clients; empty: the host's core count"
                placeholder={pick.hostId !== null && cores.has(pick.hostId) ? `${cores.get(pick.hostId)} (cores)` : 'cores'}
                data-testid={`${testId}-weight-${index}`}
                onChange={(event) => change(index, { weight: event.target.value })}
              />
            )}
            {several && (
              <button type="button" disabled={props.disabled} data-testid={`${testId}-remove-${index}`} onClick={() => props.onPicks(picks.filter((_, at) => at !== index))}>
                Remove
              </button>
            )}
          </div>
          {index > 0 && <FieldError error={props.errors[`client-${index}`]} testId={`error-client-${index}`} />}
          <FieldError error={props.errors[`client-weight-${index}`]} testId={`error-client-weight-${index}`} />
          {pick.hostId !== null && props.below?.(pick.hostId, index)}
        </div>
      ))}
      {picks.length < MAX_RUN_CLIENTS && (
        <button type="button" className="client-add" disabled={props.disabled} data-testid={`${testId}-add`} onClick={() => props.onPicks([...picks, NO_CLIENT])}>
          Add a client host
        </button>
      )}
    </FormField>
  );
}
