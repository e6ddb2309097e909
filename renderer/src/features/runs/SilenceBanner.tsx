// Says, while a run is on, which of its agents Benchlab has heard nothing from and since when: a
// client's load agent, named by host when several run (the link may be down; the run ends as
// "client link lost" once the agent has stopped by its own rule), or the server's sampler (the run
// goes on; its charts have a gap), and whether each silent host itself still answers.

import { clockTime } from '../../../../app/common/clock-time.ts';
import type { HostConnection } from '../../../../app/hosts/connections.ts';
import type { Host } from '../../../../app/hosts/hosts.ts';
import type { LiveRun } from '../../../../app/runs/runs.ts';
import { Banner } from '../../common/Banner.tsx';
import { silentClients, silentClientsText } from './silence-texts.ts';

export function SilenceBanner({ run, hosts, connections }: { run: LiveRun; hosts: readonly Host[]; connections: ReadonlyMap<number, HostConnection> }) {
  const nameOf = (hostId: number | null) => hosts.find((host) => host.id === hostId)?.name ?? 'the host';
  const answers = (hostId: number | null) => {
    const since = hostId === null ? null : connections.get(hostId)?.unresponsiveSince;
    return since ? `; ${nameOf(hostId)} does not answer either (since ${clockTime(since)})` : '';
  };
  const { server } = run.silentSince;
  const silent = silentClients(run, nameOf);
  return (
    <>
      {silent.length > 0 && (
        <Banner tone="error" role="alert" testId="run-client-silent" data-hosts={silent.map((client) => client.name).join(',')}>
          No data from {silentClientsText(silent, run.clients.length > 1)}
          {silent.map((client) => answers(client.hostId)).join('')}. If its link is down, its agent stops its load and the run ends as “client link lost”, with what was stored kept.
        </Banner>
      )}
      {server && (
        <Banner tone="warning" role="status" testId="run-server-silent">
          The server sampler on {nameOf(run.serverHostId)} is silent since {clockTime(server)}
          {answers(run.serverHostId)}: the server charts have a gap until it is heard again; the run goes on.
        </Banner>
      )}
    </>
  );
}
