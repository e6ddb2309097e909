// The lab's state as found on the machine, never trusted from its state file alone: up, down or
// broken with every problem named (bridge, namespaces, links, each sshd, hostnames, private mounts),
// how many clients an instance has, and the status in words for `npm run lab -- status`.

import { existsSync, readdirSync } from 'node:fs';
import { clientIndexOf, clientNamePattern, labLayout, PRIVATE_PATHS, SUDO_PASSWORD_FILE, SUDO_USER, SUDO_USER_MARKER, type LabHostLayout, type LabInstance, type LabLayout, type LabRole } from './layout.ts';
import type { LabOptions } from './lab.ts';
import { readFingerprint, userExists } from './lab-identity.ts';
import { linkExists, linkIsUp, namespaceIdentity } from './lab-network.ts';
import { mountPointsOf, readStateFile, sshdPidOf } from './lab-sshd.ts';
import { tool } from './lab-tools.ts';
import { isListening, netNamespaceOf, tryRun } from './system.ts';

/** A host as laid out (its identity and address), and what is running of it now. */
export interface LabHostStatus extends Pick<LabHostLayout, 'key' | 'role' | 'namespace' | 'hostname' | 'address' | 'port' | 'logFile'> {
  namespaceExists: boolean;
  sshdPid: number | null;
  sshdListening: boolean;
  /** What `hostname` says inside the host, or null when sshd is not running. */
  reportedHostname: string | null;
  hostKeyFingerprint: string | null;
  privateCopies: Record<string, string>;
}

export interface LabStatus {
  instance: LabInstance;
  state: 'up' | 'down' | 'broken';
  problems: string[];
  startedAt: string | null;
  bridge: { name: string; address: string; subnet: string; exists: boolean; up: boolean };
  /** The server and the first client. */
  hosts: Record<LabRole, LabHostStatus>;
  /** Every client, in index order. */
  clients: LabHostStatus[];
  keyPath: string;
  publicKeyPath: string;
  knownHostsPath: string;
  sudoUser: { name: string; exists: boolean; passwordFile: string | null };
}

async function reportedHostname(pid: number): Promise<string | null> {
  const result = await tryRun(tool('nsenter'), ['--target', String(pid), '--uts', '--', tool('hostname')], { timeoutMs: 5000 });
  return result.code === 0 ? result.stdout.trim() : null;
}

function namesIn(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** Clients whose namespace or root-side link exists now: a lab whose state file is gone still has these. */
function discoveredClientCount(instance: LabInstance): number {
  const pattern = clientNamePattern(instance);
  let count = 0;
  for (const name of [...namesIn('/run/netns'), ...namesIn('/sys/class/net')]) {
    const key = pattern.exec(name)?.[1];
    const index = key === undefined ? null : clientIndexOf(key);
    if (index !== null) count = Math.max(count, index + 1);
  }
  return count;
}

/** How many clients an instance has: as its state file says, or as many as left a namespace or link behind; at least one. */
export function labClientCount(instance: LabInstance = 'default'): number {
  return Math.max(readStateFile(labLayout(instance))?.clients ?? 1, discoveredClientCount(instance));
}

/** The layout of an instance with every client it has now (for status, down and the helpers). */
export function currentLayout(instance: LabInstance): LabLayout {
  return labLayout(instance, labClientCount(instance));
}

export async function labStatus(options: LabOptions = {}): Promise<LabStatus> {
  const layout = currentLayout(options.instance ?? 'default');
  const problems: string[] = [];
  let anythingExists = existsSync(layout.runDir);

  const bridgeExists = linkExists(layout.bridge);
  const bridgeUp = linkIsUp(layout.bridge);
  anythingExists ||= bridgeExists;
  if (!bridgeExists) problems.push(`bridge ${layout.bridge} is missing`);
  else if (!bridgeUp) problems.push(`bridge ${layout.bridge} is down`);

  const statuses: LabHostStatus[] = [];
  for (const host of layout.all) {
    const identity = namespaceIdentity(host.namespace);
    const pid = sshdPidOf(host);
    anythingExists ||= identity !== null || pid !== null || linkExists(host.vethRoot);
    const inNamespace = pid !== null && identity !== null && netNamespaceOf(pid) === identity;
    const listening = inNamespace && isListening(pid, host.address, host.port);
    const hostname = pid === null ? null : await reportedHostname(pid);

    if (identity === null) problems.push(`namespace ${host.namespace} is missing`);
    if (!linkExists(host.vethRoot)) problems.push(`link ${host.vethRoot} is missing`);
    else if (!linkIsUp(host.vethRoot)) problems.push(`link ${host.vethRoot} is down`);
    if (pid === null) problems.push(`sshd of ${host.hostname} is not running`);
    else if (!inNamespace) problems.push(`sshd of ${host.hostname} (pid ${pid}) is not in namespace ${host.namespace}`);
    else if (!listening) problems.push(`sshd of ${host.hostname} is not listening on ${host.address}:${host.port}`);
    if (pid !== null && hostname !== host.hostname) problems.push(`${host.namespace} reports hostname ${hostname ?? '(unknown)'}`);
    // A host started by an older lab may lack a private path added since: rebuilding it is the fix.
    const unmounted = pid === null ? [] : PRIVATE_PATHS.filter((path) => !mountPointsOf(pid).includes(path));
    if (unmounted.length > 0) problems.push(`${host.hostname} lacks its private ${unmounted.join(', ')}`);

    statuses.push({
      key: host.key,
      role: host.role,
      namespace: host.namespace,
      hostname: host.hostname,
      address: host.address,
      port: host.port,
      namespaceExists: identity !== null,
      sshdPid: pid,
      sshdListening: listening,
      reportedHostname: hostname,
      hostKeyFingerprint: readFingerprint(`${host.hostKey}.pub`),
      logFile: host.logFile,
      privateCopies: { ...host.privateCopies },
    });
  }
  const clients = statuses.slice(0, layout.clients.length);

  const sudoUserExists = await userExists(SUDO_USER);
  const passwordKnown = existsSync(SUDO_USER_MARKER) && existsSync(SUDO_PASSWORD_FILE);
  const state = !anythingExists ? 'down' : problems.length === 0 ? 'up' : 'broken';
  return {
    instance: layout.instance,
    state,
    problems: state === 'down' ? [] : problems,
    startedAt: readStateFile(layout)?.startedAt ?? null,
    bridge: { name: layout.bridge, address: layout.bridgeAddress, subnet: layout.subnet, exists: bridgeExists, up: bridgeUp },
    hosts: { client: clients[0]!, server: statuses.at(-1)! },
    clients,
    keyPath: layout.keyPath,
    publicKeyPath: layout.publicKeyPath,
    knownHostsPath: layout.knownHostsPath,
    sudoUser: { name: SUDO_USER, exists: sudoUserExists, passwordFile: sudoUserExists && passwordKnown ? SUDO_PASSWORD_FILE : null },
  };
}

export function formatStatus(status: LabStatus): string {
  const lines = [`Benchlab lab (instance ${status.instance}): ${status.state}${status.startedAt ? `, started ${status.startedAt}` : ''}`];
  for (const problem of status.problems) lines.push(`  problem: ${problem}`);
  if (status.state === 'down') return lines.join('\n');
  const bridge = status.bridge;
  lines.push(`  bridge   ${bridge.name}  ${bridge.address} (${bridge.subnet})${bridge.up ? '' : ' [down]'}`);
  for (const host of [...status.clients, status.hosts.server]) {
    lines.push(
      `  ${host.key.padEnd(8)} ${host.namespace}  ${host.address}:${host.port}  hostname ${host.reportedHostname ?? '?'}  ` +
        `sshd ${host.sshdPid === null ? 'not running' : `pid ${host.sshdPid}${host.sshdListening ? '' : ' (not listening)'}`}`,
    );
    lines.push(`           host key ${host.hostKeyFingerprint ?? '(none)'}  log ${host.logFile}`);
  }
  lines.push(`  ssh key  ${status.keyPath} (user root)   known_hosts ${status.knownHostsPath}`);
  const sudo = status.sudoUser;
  lines.push(
    `  sudo     user ${sudo.name}: ${!sudo.exists ? 'missing' : sudo.passwordFile ? `password in ${sudo.passwordFile}` : 'exists, password not known to the lab'}`,
  );
  return lines.join('\n');
}
