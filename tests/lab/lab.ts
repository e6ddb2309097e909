// The lab: network namespaces (a server and one or more clients) joined by a bridge in the root
// namespace, each running its own sshd with its own host key, hostname and private copies of
// /etc/security/limits.d, /etc/security/limits.conf, /etc/sysctl.d and /etc/hosts, so Benchlab can
// drive real SSH hosts on one Linux machine without changing the machine's own configuration.
// Owns bringing the lab up and down and the helpers tests use to act on lab hosts (exec, ssh, link
// down, host key rotation); the pieces live beside it: lab-tools.ts (the commands), lab-identity.ts
// (keys, the sudo user), lab-network.ts, lab-sshd.ts (each host's files and sshd), lab-status.ts,
// and lab-cli.ts (`npm run lab`).

import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  clientIndexOf,
  LAB_RUN_ROOT,
  labHostLayout,
  labLayout,
  MAX_LAB_CLIENTS,
  registeredNameOf,
  type LabHostKey,
  type LabHostLayout,
  type LabInstance,
  type LabLayout,
} from './layout.ts';
import type { RegisterResult } from './register.ts';
import { ensureIdentity, ensureSudoUser, generateKey, readFingerprint, writeKnownHosts } from './lab-identity.ts';
import { assertSubnetFree, buildNetwork, linkExists, namespaceIdentity, namespacePath } from './lab-network.ts';
import { readPid, sshdPidOf, SSHD_START_MS, startSshd, writeRuntimeFiles, type StateFile } from './lab-sshd.ts';
import { currentLayout, labStatus, type LabStatus } from './lab-status.ts';
import { assertSupported, labUnsupportedReason, tool } from './lab-tools.ts';
import { isAlive, isListening, listPids, mountPoints, netNamespaceOf, pidsMentioning, readCmdline, run, terminate, tryRun, waitFor, type RunResult } from './system.ts';

export {
  clientKey,
  labLayout,
  LAB_ROLES,
  MAX_LAB_CLIENTS,
  REGISTERED_NAMES,
  registeredNameOf,
  SUDO_USER,
  type LabHostKey,
  type LabInstance,
  type LabLayout,
  type LabRole,
} from './layout.ts';

export { labClientCount, labStatus, type LabHostStatus, type LabStatus } from './lab-status.ts';
export { fingerprintOf, labSudoPassword } from './lab-identity.ts';
export { labUnsupportedReason } from './lab-tools.ts';

export interface LabOptions {
  instance?: LabInstance;
  /** Progress lines; silent by default. */
  log?: (line: string) => void;
}

export interface LabUpOptions extends LabOptions {
  /**
   * How many client hosts (1 to 16). Absent: a running lab keeps the clients it has, a new one gets
   * one. A running lab with another count is rebuilt with this one.
   */
  clients?: number;
  /** Also register every host in Benchlab's store (skipping names already there). */
  register?: boolean;
  /** The store to register into; defaults to Benchlab's data dir. */
  dataDir?: string;
}

export interface LabUpResult {
  /** True when a healthy lab was already running and was left as it was. */
  alreadyUp: boolean;
  /** True when pieces of a broken lab were cleared before building. */
  rebuilt: boolean;
  seconds: number;
  status: LabStatus;
  registered?: RegisterResult;
}

export interface LabDownResult {
  seconds: number;
  /** What still exists after teardown; empty when the lab is fully gone. */
  leftovers: string[];
}

const LOCK_WAIT_MS = 60_000;

function resolveInstance(options: LabOptions): LabInstance {
  return options.instance ?? 'default';
}

// ---------------------------------------------------------------------------------------------
// Lock: one lab command per instance at a time (parallel test files may all call labUp).

async function withLock<T>(layout: LabLayout, action: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    mkdirSync(LAB_RUN_ROOT, { recursive: true, mode: 0o755 });
    try {
      writeFileSync(layout.lockPath, `${process.pid}\n`, { flag: 'wx', mode: 0o644 });
      break;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') continue;
      if (code !== 'EEXIST') throw error;
    }
    const holder = readPid(layout.lockPath);
    if (holder === null || !isAlive(holder)) {
      rmSync(layout.lockPath, { force: true });
      continue;
    }
    if (Date.now() > deadline) {
      throw new Error(`another lab command (pid ${holder}) has held ${layout.lockPath} for over ${LOCK_WAIT_MS / 1000} s`);
    }
    await sleep(100);
  }
  try {
    return await action();
  } finally {
    rmSync(layout.lockPath, { force: true });
    removeIfEmpty(LAB_RUN_ROOT);
  }
}

function removeIfEmpty(dir: string): void {
  try {
    rmdirSync(dir);
  } catch {
    // not empty, or already gone
  }
}

// ---------------------------------------------------------------------------------------------
// Up and down

export async function labUp(options: LabUpOptions = {}): Promise<LabUpResult> {
  assertSupported();
  const started = performance.now();
  const log = options.log ?? (() => {});
  const instance = resolveInstance(options);
  // Checked before anything is touched: a bad count changes nothing.
  if (options.clients !== undefined) labLayout(instance, options.clients);
  const seconds = () => Math.round((performance.now() - started) / 10) / 100;

  const outcome = await withLock(labLayout(instance), async () => {
    const before = await labStatus({ instance });
    const wanted = options.clients ?? (before.state === 'down' ? 1 : before.clients.length);
    const layout = labLayout(instance, wanted);
    if (before.state === 'up' && before.clients.length === wanted) {
      log(`lab ${instance} is already up: left as it is`);
      return { alreadyUp: true, rebuilt: false, status: before, layout };
    }
    const rebuilt = before.state !== 'down';
    if (rebuilt) {
      log(
        before.state === 'up'
          ? `rebuilding: the lab has ${before.clients.length} client(s), ${wanted} asked for`
          : `clearing a broken lab first: ${before.problems.join('; ')}`,
      );
      const leftovers = await teardown(instance, log);
      if (leftovers.length > 0) throw new Error(`could not clear the broken lab: ${leftovers.join('; ')}`);
    }
    try {
      await assertSubnetFree(layout);
      log('keys');
      await ensureIdentity(layout);
      await ensureSudoUser(log);
      writeRuntimeFiles(layout);
      log(`network: ${layout.bridge} ${layout.subnet}`);
      await buildNetwork(layout);
      for (const host of layout.all) {
        log(`sshd of ${host.hostname}`);
        await startSshd(host);
      }
      const state: StateFile = { instance, startedAt: new Date().toISOString(), clients: layout.clients.length };
      writeFileSync(layout.statePath, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o644 });
      const after = await labStatus({ instance });
      if (after.state !== 'up') throw new Error(`the lab came up incomplete: ${after.problems.join('; ')}`);
      return { alreadyUp: false, rebuilt, status: after, layout };
    } catch (error) {
      // Leave nothing half-built behind.
      const leftovers = await teardown(instance, log);
      const suffix = leftovers.length > 0 ? ` (and clearing it left: ${leftovers.join('; ')})` : '';
      throw new Error(`lab up failed: ${(error as Error).message}${suffix}`, { cause: error });
    }
  });

  const { layout, ...done } = outcome;
  const result: LabUpResult = { ...done, seconds: seconds() };
  if (options.register) result.registered = await registerHosts(layout, options.dataDir);
  return result;
}

/**
 * Registers the layout's hosts (every client, then the server) in Benchlab's store; hosts already
 * registered under the same name are skipped.
 */
export async function registerHosts(layout: LabLayout, dataDir?: string): Promise<RegisterResult> {
  const { registerLabHosts } = await import('./register.ts');
  const entries = layout.all.map((host) => ({
    name: registeredNameOf(host.key),
    address: host.address,
    port: host.port,
    user: 'root',
    keyPath: layout.keyPath,
  }));
  return dataDir === undefined ? registerLabHosts(entries) : registerLabHosts(entries, dataDir);
}

export async function labDown(options: LabOptions & { purge?: boolean } = {}): Promise<LabDownResult> {
  const reason = labUnsupportedReason();
  if (reason) throw new Error(reason);
  const started = performance.now();
  const log = options.log ?? (() => {});
  const layout = labLayout(resolveInstance(options));
  const leftovers = await withLock(layout, async () => {
    const remaining = await teardown(layout.instance, log);
    if (options.purge) {
      rmSync(layout.identityDir, { recursive: true, force: true });
      log(`removed the lab's keys in ${layout.identityDir}`);
    }
    return remaining;
  });
  return { seconds: Math.round((performance.now() - started) / 10) / 100, leftovers };
}

/**
 * Stops every process in the lab's namespaces, removes namespaces, links and runtime files, and
 * reports what is left: every client the instance has, found by name even without its state file.
 */
async function teardown(instance: LabInstance, log: (line: string) => void): Promise<string[]> {
  const ip = tool('ip');
  const layout = currentLayout(instance);
  const identities = layout.all.map((host) => namespaceIdentity(host.namespace)).filter(
    (identity): identity is string => identity !== null,
  );
  const labProcesses = () => {
    const inNamespaces = listPids().filter((pid) => {
      const identity = netNamespaceOf(pid);
      return identity !== null && identities.includes(identity);
    });
    return [...new Set([...inNamespaces, ...pidsMentioning(`${layout.runDir}/`)])].filter((pid) => pid !== process.pid && isAlive(pid));
  };

  const pids = labProcesses();
  if (pids.length > 0) {
    log(`stopping ${pids.length} lab process(es)`);
    await terminate(pids);
  }
  for (const host of layout.all) {
    if (existsSync(namespacePath(host.namespace))) await tryRun(ip, ['netns', 'delete', host.namespace]);
    // Deleting the namespace takes the veth pair with it, unless something still holds the namespace.
    if (linkExists(host.vethRoot)) await tryRun(ip, ['link', 'delete', host.vethRoot]);
  }
  if (linkExists(layout.bridge)) await tryRun(ip, ['link', 'delete', layout.bridge]);
  if (layout.runDir.startsWith(`${LAB_RUN_ROOT}/`)) rmSync(layout.runDir, { recursive: true, force: true });
  await releaseNetnsDirectory();

  // Links vanish asynchronously once the last reference to a namespace goes.
  const names = [layout.bridge, ...layout.all.map((host) => host.vethRoot)];
  await waitFor(() => names.every((name) => !linkExists(name)), 2000);

  const leftovers: string[] = [];
  for (const host of layout.all) {
    if (existsSync(namespacePath(host.namespace))) leftovers.push(`namespace ${host.namespace}`);
  }
  for (const name of names) if (linkExists(name)) leftovers.push(`link ${name}`);
  for (const mount of mountPoints()) {
    const ours = mount.startsWith(`${layout.runDir}/`) || layout.all.some((host) => mount === namespacePath(host.namespace));
    if (ours) leftovers.push(`mount ${mount}`);
  }
  for (const pid of labProcesses()) leftovers.push(`process ${pid} (${(readCmdline(pid) ?? []).join(' ')})`);
  if (existsSync(layout.runDir)) leftovers.push(`directory ${layout.runDir}`);
  if (leftovers.length === 0) log(`lab ${layout.instance} is down`);
  return leftovers;
}

/**
 * `ip netns add` turns /run/netns into a mount point the first time; once no namespace is left
 * in it, that mount serves nothing and would outlive the lab, so it goes (ip recreates it on demand).
 */
async function releaseNetnsDirectory(): Promise<void> {
  const dir = '/run/netns';
  if (!existsSync(dir) || readdirSync(dir).length > 0) return;
  if (mountPoints().includes(dir)) await tryRun(tool('umount'), [dir]);
  removeIfEmpty(dir);
}

// ---------------------------------------------------------------------------------------------
// Helpers for tests

/** A host's layout by key, refusing a key that is no host's (`client0`, `client17`). */
function hostByKey(instance: LabInstance, key: LabHostKey): LabHostLayout {
  if (key !== 'server' && clientIndexOf(key) === null) throw new Error(`no lab host "${key}": server, client, client2 … client${MAX_LAB_CLIENTS}`);
  return labHostLayout(instance, key);
}

function runningHost(key: LabHostKey, options: LabOptions): { layout: LabLayout; host: LabHostLayout; pid: number } {
  const layout = currentLayout(resolveInstance(options));
  const host = hostByKey(layout.instance, key);
  const pid = sshdPidOf(host);
  if (pid === null) throw new Error(`lab host ${host.hostname} (instance ${layout.instance}) is not running: run \`npm run lab -- up\``);
  return { layout, host, pid };
}

/** Runs a command inside a lab host (its network, mount and UTS namespaces) without SSH. */
export async function labExec(
  role: LabHostKey,
  argv: readonly string[],
  options: LabOptions & { input?: string; timeoutMs?: number } = {},
): Promise<RunResult> {
  const { pid } = runningHost(role, options);
  const [command, ...args] = argv;
  if (!command) throw new Error('labExec needs a command');
  return tryRun(tool('nsenter'), ['--target', String(pid), '--net', '--mount', '--uts', '--', command, ...args], {
    ...(options.input === undefined ? {} : { input: options.input }),
    timeoutMs: options.timeoutMs ?? 15_000,
  });
}

/** Runs a shell command on a lab host over SSH with the lab's key, checking the host key against the lab's known_hosts. */
export async function labSsh(
  role: LabHostKey,
  command: string,
  options: LabOptions & { user?: string; input?: string; timeoutMs?: number } = {},
): Promise<RunResult> {
  const { layout, host } = runningHost(role, options);
  const args = [
    '-F', '/dev/null',
    '-i', layout.keyPath,
    '-o', 'IdentitiesOnly=yes',
    '-o', 'BatchMode=yes',
    '-o', 'StrictHostKeyChecking=yes',
    '-o', `UserKnownHostsFile=${layout.knownHostsPath}`,
    '-o', 'GlobalKnownHostsFile=/dev/null',
    '-o', 'ConnectTimeout=5',
    '-o', 'LogLevel=ERROR',
    '-p', String(host.port),
    `${options.user ?? 'root'}@${host.address}`,
    '--',
    command,
  ];
  return tryRun(tool('ssh'), args, {
    ...(options.input === undefined ? {} : { input: options.input }),
    timeoutMs: options.timeoutMs ?? 20_000,
  });
}

/** Takes a host's link down (or back up) at the bridge, as a pulled cable would. */
export async function labSetLink(role: LabHostKey, state: 'up' | 'down', options: LabOptions = {}): Promise<void> {
  await run(tool('ip'), ['link', 'set', hostByKey(resolveInstance(options), role).vethRoot, state]);
}

/** Gives a host a new host key and restarts its sshd on it; returns the new fingerprint. */
export async function labRegenerateHostKey(role: LabHostKey, options: LabOptions = {}): Promise<string> {
  const { layout, host, pid } = runningHost(role, options);
  const restarts = () => (readFileSync(host.logFile, 'utf8').match(/Server listening on /g) ?? []).length;
  const before = restarts();
  await generateKey(host.hostKey, `${host.hostname}-${layout.instance}`);
  writeKnownHosts(layout);
  // On SIGHUP sshd re-executes itself in place (same pid, same namespaces) and reloads its keys.
  process.kill(pid, 'SIGHUP');
  const ready = await waitFor(() => restarts() > before && isListening(pid, host.address, host.port), SSHD_START_MS);
  if (!ready) throw new Error(`sshd of ${host.hostname} did not come back after a host key change`);
  const fingerprint = readFingerprint(`${host.hostKey}.pub`);
  if (!fingerprint) throw new Error(`no public host key for ${host.hostname}`);
  return fingerprint;
}
