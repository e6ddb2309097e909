// Which load clients of a live run are silent, in words, apart from the banner (tested without a
// DOM): with several clients each silent one is named by host with since when; with one, the
// client of the run.

import { clockTime } from '../../../../app/common/clock-time.ts';
import type { LiveRun } from '../../../../app/runs/runs.ts';

export interface SilentClient {
  hostId: number;
  name: string;
  since: string;
}

/** The silent clients, earliest first; [] while every client sends. */
export function silentClients(run: Pick<LiveRun, 'clients' | 'clientHostId' | 'silentSince'>, nameOf: (hostId: number) => string): SilentClient[] {
  const { client, clients } = run.silentSince;
  if (clients && run.clients.length > 1) {
    return clients
      .flatMap(({ index, since }) => {
        const live = run.clients[index];
        return live ? [{ hostId: live.hostId, name: live.name, since }] : [];
      })
      .sort((a, b) => a.since.localeCompare(b.since));
  }
  return client ? [{ hostId: run.clientHostId, name: nameOf(run.clientHostId), since: client }] : [];
}

/** "the client (bl-client) since 12:00:01", or for several "the clients bl-client2 (since …) and bl-client3 (since …)". */
export function silentClientsText(silent: readonly SilentClient[], several: boolean): string {
  if (!several) return silent.map((client) => `the client (${client.name}) since ${clockTime(client.since)}`).join('');
  const named = silent.map((client) => `${client.name} (since ${clockTime(client.since)})`);
  const list = named.length > 1 ? `${named.slice(0, -1).join(', ')} and ${named.at(-1)}` : named[0];
  return `${named.length > 1 ? 'the clients' : 'the client'} ${list}`;
}
