// A lab back end with several load clients: the instance brought up with N clients, the test back
// end of tests/support/lab-backend.ts (lab-client and lab-server), and the other clients added to
// it (lab-client2, …) with their keys pinned and connected. Also the agents running on each lab
// host, read from /proc (lab hosts share the machine's pid namespace), for tests that kill an agent
// on one client and check that none is left on any host.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { clientKey, labStatus, labUp, registeredNameOf, type LabHostKey, type LabInstance } from '../lab/lab.ts';
import { labHostLayout } from '../lab/layout.ts';
import { isAlive, listPids, netNamespaceOf, readCmdline } from '../lab/system.ts';
import { openLabBackend, type LabBackend } from './lab-backend.ts';
import { agentPidFileName } from '../../main/services/runs/agent-host.ts';

export interface MultiClientLab extends LabBackend {
  /** Host ids of the clients in index order; [0] is `clientId`. */
  clientIds: number[];
  /** Lab host keys of the clients in index order (client, client2, …). */
  clientKeys: LabHostKey[];
}

export async function openMultiClientLab(instance: LabInstance, dirPrefix: string, clients: number): Promise<MultiClientLab> {
  await labUp({ instance, clients });
  const lab = await openLabBackend(instance, dirPrefix);
  try {
    const status = await labStatus({ instance });
    const clientIds = [lab.clientId];
    for (const host of status.clients.slice(1)) {
      const added = await lab.ok<{ id: number }>('hosts.add', {
        name: registeredNameOf(host.key),
        address: host.address,
        port: host.port,
        user: 'root',
        auth: 'key',
        keyPath: lab.targets.keyPath,
      });
      if (!host.hostKeyFingerprint) throw new Error(`lab host ${host.hostname} has no host key`);
      lab.services.hosts.pinKey(added.id, host.hostKeyFingerprint);
      await lab.ok('hosts.connect', { id: added.id });
      clientIds.push(added.id);
    }
    return { ...lab, clientIds, clientKeys: clientIds.map((_, index) => clientKey(index)) };
  } catch (error) {
    await lab.close();
    throw error;
  }
}

/** The pid an agent of this data dir (`owner`, from agentOwner) wrote on a lab host for a session, or null. */
export function labAgentPid(instance: LabInstance, key: LabHostKey, owner: string, sessionId: number, agentRole: 'load' | 'sampler'): number | null {
  const host = labHostLayout(instance, key);
  const file = join(host.privateCopies['/var/lib/benchlab'], 'agent', 'pids', host.hostname, agentPidFileName(owner, sessionId, agentRole));
  if (!existsSync(file)) return null;
  const pid = Number(readFileSync(file, 'utf8').trim());
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

/** Benchlab's agents and native engines running in any host of the instance, as `<hostname>: <pid> <command>`. */
export async function labAgentProcesses(instance: LabInstance): Promise<string[]> {
  const status = await labStatus({ instance });
  const found: string[] = [];
  for (const host of [...status.clients, status.hosts.server]) {
    if (host.sshdPid === null) continue;
    const namespace = netNamespaceOf(host.sshdPid);
    for (const pid of listPids()) {
      if (netNamespaceOf(pid) !== namespace || !isAlive(pid)) continue;
      const command = (readCmdline(pid) ?? []).join(' ');
      if (/benchlab-(agent|engine)/.test(command)) found.push(`${host.hostname}: ${pid} ${command.slice(0, 100)}`);
    }
  }
  return found;
}
