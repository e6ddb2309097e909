// The noise pre-flight for a chosen client, server and target port: read both hosts when the choice
// changes (the answer to an older choice is dropped), and again on demand.

import { useCallback, useEffect, useState } from 'react';
import type { NoiseFinding } from '../../../../app/hosts/host-facts.ts';
import { errorMessage, useApi } from '../../api-context.tsx';

export interface PreflightChoice {
  clientHostId: number;
  serverHostId: number | null;
  port: number | null;
}

export function usePreflight(choice: PreflightChoice | null): { findings: NoiseFinding[] | null; checking: boolean; error: string | null; recheck: () => void } {
  const api = useApi();
  const [round, setRound] = useState(0);
  const [answer, setAnswer] = useState<{ key: string; round: number; findings: NoiseFinding[] | null; error: string | null } | null>(null);
  const key = choice ? `${choice.clientHostId}:${choice.serverHostId ?? ''}:${choice.port ?? ''}` : null;

  useEffect(() => {
    if (key === null) return;
    const [client, server, port] = key.split(':');
    let current = true;
    api.runs.preflight({ clientHostId: Number(client), serverHostId: server ? Number(server) : null, port: port ? Number(port) : null }).then(
      (result) => current && setAnswer({ key, round, findings: result.findings, error: null }),
      (failure: unknown) => current && setAnswer({ key, round, findings: null, error: errorMessage(failure) }),
    );
    return () => {
      current = false;
    };
  }, [api, key, round]);

  // Only the answer to the current choice and round counts; an older one is still "checking".
  const fresh = answer && answer.key === key && answer.round === round ? answer : null;
  const recheck = useCallback(() => setRound((value) => value + 1), []);
  return { findings: fresh?.findings ?? null, checking: key !== null && fresh === null, error: fresh?.error ?? null, recheck };
}

/** The findings stored with a session at its start; [] for a session that recorded none. */
export function useSessionNoise(sessionId: number | null): { findings: NoiseFinding[] | null; recorded: boolean; error: string | null } {
  const api = useApi();
  const [state, setState] = useState<{ id: number | null; findings: NoiseFinding[] | null; recorded: boolean; error: string | null }>({ id: null, findings: null, recorded: false, error: null });
  useEffect(() => {
    if (sessionId === null) return;
    let current = true;
    api.runs.hostFacts({ sessionId }).then(
      (facts) => current && setState({ id: sessionId, findings: facts?.findings ?? [], recorded: facts !== null, error: null }),
      (failure: unknown) => current && setState({ id: sessionId, findings: null, recorded: false, error: errorMessage(failure) }),
    );
    return () => {
      current = false;
    };
  }, [api, sessionId]);
  return state.id === sessionId ? state : { findings: null, recorded: false, error: null };
}
