// The load clients picked on the Run page (and the wizard's hosts step): one or more hosts, each with
// an optional weight typed as text; their checks, field by field; and what runs.start is sent — the
// host alone for one client, `clients` with the weights given for several (a weight left empty is
// the host's core count, decided by the back end).

import { MAX_RUN_CLIENTS, type RunClient } from '../../../../app/runs/runs-contract.ts';

export interface ClientPick {
  hostId: number | null;
  /** As typed; empty: the host's core count. */
  weight: string;
}

export const NO_CLIENT: ClientPick = { hostId: null, weight: '' };
const MAX_WEIGHT = 1000;

/** The weight typed, as a number; undefined when empty; null when it is not a valid weight. */
export function weightOf(pick: ClientPick): number | undefined | null {
  const text = pick.weight.trim();
  if (text === '') return undefined;
  const weight = Number(text);
  return Number.isFinite(weight) && weight > 0 && weight <= MAX_WEIGHT ? weight : null;
}

/**
 * Field → message: `clientHostId` for the first client (as with one client), `client-<i>` and
 * `client-weight-<i>` for the others' host and every weight.
 */
export function clientPickErrors(picks: readonly ClientPick[], what = 'runs the load'): Record<string, string> {
  const errors: Record<string, string> = {};
  const hostField = (index: number) => (index === 0 ? 'clientHostId' : `client-${index}`);
  picks.forEach((pick, index) => {
    if (pick.hostId === null) errors[hostField(index)] = index === 0 ? `choose the host that ${what}` : 'choose a host, or remove this client';
    else if (picks.findIndex((other) => other.hostId === pick.hostId) < index) errors[hostField(index)] = 'is already a client above: each host once';
    if (picks.length > 1 && weightOf(pick) === null) errors[`client-weight-${index}`] = `must be a number above 0 and at most ${MAX_WEIGHT}, or empty for the core count`;
  });
  if (picks.length > MAX_RUN_CLIENTS) errors[hostField(MAX_RUN_CLIENTS)] = `at most ${MAX_RUN_CLIENTS} clients`;
  return errors;
}

/** What runs.start takes for these picks: the host alone for one client, the list for several; null while a pick is missing or wrong. */
export function runClientsOf(picks: readonly ClientPick[]): { clientHostId: number } | { clients: RunClient[] } | null {
  if (picks.length === 0 || Object.keys(clientPickErrors(picks)).length > 0) return null;
  if (picks.length === 1) return { clientHostId: picks[0]!.hostId! };
  return {
    clients: picks.map((pick) => {
      const weight = weightOf(pick);
      return { hostId: pick.hostId!, ...(weight !== undefined && weight !== null ? { weight } : {}) };
    }),
  };
}

/** The picks kept across navigation, back in shape: a bad entry becomes an empty pick, never breaks the page. */
export function restoreClientPicks(saved: unknown): ClientPick[] {
  if (!Array.isArray(saved) || saved.length === 0) return [NO_CLIENT];
  return saved.slice(0, MAX_RUN_CLIENTS).map((entry: unknown) => {
    const { hostId, weight } = (typeof entry === 'object' && entry !== null ? entry : {}) as Partial<ClientPick>;
    return { hostId: Number.isInteger(hostId) && (hostId as number) > 0 ? (hostId as number) : null, weight: typeof weight === 'string' ? weight : '' };
  });
}
