// The noise pre-flight for the chosen clients, server and target port: read every host when the
// choice changes (the answer to an older choice is dropped), and again on demand; and the facts a
// session stored at its start.

import { useCallback, useEffect, useState } from 'react';
import type { NoiseFinding, SessionHostFacts } from '../../../../app/hosts/host-facts.ts';
import { errorMessage, useApi } from '../../api-context.tsx';
import { checkedHostsText } from './noise-texts.ts';

export interface PreflightChoice {
  clientHostId: number;
  /** Every client when there are several (clientHostId first). */
  clientHostIds?: readonly number[];
  serverHostId: number | null;
  port: number | null;
}

interface PreflightAnswer {
  key: string;
  round: number;
  findings: NoiseFinding[] | null;
  facts: SessionHostFacts | null;
  checked: string | null;
  error: string | null;
}

export function usePreflight(choice: PreflightChoice | null): { findings: NoiseFinding[] | null; facts: SessionHostFacts | null; checked: string | null; checking: boolean; error: string | null; recheck: () => void } {
  const api = useApi();
  const [round, setRound] = useState(0);
  const [answer, setAnswer] = useState<PreflightAnswer | null>(null);
  const clients = choice ? (choice.clientHostIds && choice.clientHostIds.length > 1 ? choice.clientHostIds : [choice.clientHostId]) : [];
  const key = choice ? `${clients.join(',')}:${choice.serverHostId ?? ''}:${choice.port ?? ''}` : null;

  useEffect(() => {
    if (key === null) return;
    const [clientList, server, port] = key.split(':');
    const clientHostIds = clientList!.split(',').map(Number);
    let current = true;
    api.runs
      .preflight({ clientHostId: clientHostIds[0]!, ...(clientHostIds.length > 1 ? { clientHostIds } : {}), serverHostId: server ? Number(server) : null, port: port ? Number(port) : null })
      .then(
        (result) => current && setAnswer({ key, round, findings: result.findings, facts: result, checked: checkedHostsText(result), error: null }),
        (failure: unknown) => current && setAnswer({ key, round, findings: null, facts: null, checked: null, error: errorMessage(failure) }),
      );
    return () => {
      current = false;
    };
  }, [api, key, round]);

  // Only the answer to the current choice and round counts; an older one is still "checking".
  const fresh = answer && answer.key === key && answer.round === round ? answer : null;
  const recheck = useCallback(() => setRound((value) => value + 1), []);
  return { findings: fresh?.findings ?? null, facts: fresh?.facts ?? null, checked: fresh?.checked ?? null, checking: key !== null && fresh === null, error: fresh?.error ?? null, recheck };
}

/** The findings stored with a session at its start; [] for a session that recorded none. */
export function useSessionNoise(sessionId: number | null): { findings: NoiseFinding[] | null; facts: SessionHostFacts | null; checked: string | null; recorded: boolean; error: string | null } {
  const api = useApi();
  const [state, setState] = useState<{ id: number | null; findings: NoiseFinding[] | null; facts: SessionHostFacts | null; checked: string | null; recorded: boolean; error: string | null }>({
    id: null,
    findings: null,
    facts: null,
    checked: null,
    recorded: false,
    error: null,
  });
  useEffect(() => {
    if (sessionId === null) return;
    let current = true;
    api.runs.hostFacts({ sessionId }).then(
      (facts) => current && setState({ id: sessionId, findings: facts?.findings ?? [], facts, checked: facts ? checkedHostsText(facts) : null, recorded: facts !== null, error: null }),
      (failure: unknown) => current && setState({ id: sessionId, findings: null, facts: null, checked: null, recorded: false, error: errorMessage(failure) }),
    );
    return () => {
      current = false;
    };
  }, [api, sessionId]);
  return state.id === sessionId ? state : { findings: null, facts: null, checked: null, recorded: false, error: null };
}
