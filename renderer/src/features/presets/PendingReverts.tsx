// Hosts that still carry preset changes, from Benchlab's journal — including an apply that never
// finished because Benchlab died — each with its Revert button. Shown at the top of every page.

import { useState } from 'react';
import type { PendingRevert } from '../../../../app/presets/presets-contract.ts';
import { errorMessage, useApi } from '../../api-context.tsx';
import { Banner } from '../../common/Banner.tsx';
import { useLoaded } from '../../common/use-loaded.ts';

/** The pending reverts, reloaded whenever an apply or revert finishes anywhere. */
export function usePendingReverts(): { pending: PendingRevert[]; reload: () => void } {
  const { value, reload } = useLoaded((api) => api.presets.pending(), { event: 'presets.progress', reloadWhen: (event) => event.step === 'done' });
  return { pending: value ?? NONE, reload };
}

const NONE: PendingRevert[] = [];

export function PendingReverts() {
  const api = useApi();
  const { pending, reload } = usePendingReverts();
  const [busy, setBusy] = useState<number | null>(null);
  const [errors, setErrors] = useState<Record<number, string>>({});

  const revert = async (hostId: number) => {
    setBusy(hostId);
    try {
      const result = await api.presets.revert({ hostId });
      setErrors((current) => ({ ...current, [hostId]: result.outcome === 'incomplete' ? 'The revert is incomplete: see the Presets page.' : '' }));
    } catch (failure) {
      setErrors((current) => ({ ...current, [hostId]: errorMessage(failure) }));
    } finally {
      setBusy(null);
      reload();
    }
  };

  return pending.map((entry) => (
    <Banner key={entry.hostId} tone="warning" className="pending-revert" role="status" testId="pending-revert" data-host-name={entry.hostName}>
      <span>
        <strong>{entry.hostName}: changes pending revert</strong> —{' '}
        {entry.state === 'interrupted'
          ? `an apply of ${entry.presets.join(', ')} did not finish (started ${new Date(entry.since).toLocaleString()}); the host may be partly changed.`
          : `${entry.presets.join(', ')} applied ${new Date(entry.since).toLocaleString()}.`}
        {errors[entry.hostId] && <span className="field-error"> {errors[entry.hostId]}</span>}
      </span>
      <button type="button" className="danger" disabled={busy !== null} data-testid="pending-revert-button" onClick={() => void revert(entry.hostId)}>
        {busy === entry.hostId ? 'Reverting…' : 'Revert'}
      </button>
    </Banner>
  ));
}
