// The server already running on the plan's server host (templates.occupant), read when the host is
// chosen and connected, and again on demand (after it was stopped); an answer for an older host is
// dropped.

import { useCallback, useEffect, useState } from 'react';
import type { ServerOccupant } from '../../../../app/templates/templates-contract.ts';
import { errorMessage, useApi } from '../../api-context.tsx';

export interface OccupantCheck {
  /** undefined while checking; null when the host is free. */
  occupant: ServerOccupant | null | undefined;
  error: string | null;
  recheck: () => void;
}

export function useServerOccupant(hostId: number | null): OccupantCheck {
  const api = useApi();
  const [round, setRound] = useState(0);
  const [answer, setAnswer] = useState<{ hostId: number; round: number; occupant: ServerOccupant | null; error: string | null } | null>(null);

  useEffect(() => {
    if (hostId === null) return;
    let current = true;
    api.templates.occupant({ hostId }).then(
      (occupant) => current && setAnswer({ hostId, round, occupant, error: null }),
      (failure: unknown) => current && setAnswer({ hostId, round, occupant: null, error: errorMessage(failure) }),
    );
    return () => {
      current = false;
    };
  }, [api, hostId, round]);

  const fresh = answer && answer.hostId === hostId && answer.round === round ? answer : null;
  const recheck = useCallback(() => setRound((value) => value + 1), []);
  if (hostId === null) return { occupant: null, error: null, recheck };
  return { occupant: fresh ? fresh.occupant : undefined, error: fresh?.error ?? null, recheck };
}
