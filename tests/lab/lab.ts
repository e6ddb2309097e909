// The lab: network namespaces (a server and one or more clients) joined by a bridge in the root
// namespace, each running its own sshd with its own host key, hostname and private copies of
// /etc/security/limits.d, /etc/security/limits.conf, /etc/sysctl.d and /etc/hosts, so Benchlab can
// drive real SSH hosts on one Linux machine without changing the machine's own configuration.
// Owns bringing the lab up and down, reporting its state, the helpers tests use to act on lab
// hosts (exec, ssh, link down, host key rotation), and the CLI behind `npm run lab`.

import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { delimiter, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  clientIndexOf,
  clientNamePattern,
  isLabInstance,
  LAB_HOME,
  LAB_INSTANCES,
  LAB_RUN_ROOT,
  labHostLayout,
  labLayout,
  MAX_LAB_CLIENTS,
  PRIVATE_PATHS,
  registeredNameOf,
  SUDO_PASSWORD_FILE,
  SUDO_USER,
  SUDO_USER_MARKER,
  type LabHostKey,
  type LabHostLayout,
  type LabInstance,
  type LabLayout,
  type LabRole,
} from './layout.ts';
import type { RegisterResult } from './register.ts';
import {
  isAlive,
  isListening,
  listPids,
  mountPoints,
  netNamespaceOf,
  pidsMentioning,
  readCmdline,
  run,
  terminate,
  tryRun,
  waitFor,
  type RunResult,
} from './system.ts';

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

export interface LabHostStatus {
  key: LabHostKey;
  role: LabRole;
  namespace: string;
  hostname: string;
  address: string;
  port: number;
  namespaceExists: boolean;
  sshdPid: number | null;
  sshdListening: boolean;
  /** What `hostname` says inside the host, or null when sshd is not running. */
  reportedHostname: string | null;
  hostKeyFingerprint: string | null;
  logFile: string;
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

interface StateFile {
  instance: LabInstance;
  startedAt: string;
  /** Absent in state files written before the lab had several clients: one. */
  clients?: number;
}

const SSHD = '/usr/sbin/sshd';
const SUDO_GROUP = 'sudo';
const LOCK_WAIT_MS = 60_000;
const SSHD_START_MS = 10_000;

/** Each command the lab runs, with the Debian package that provides it. */
const TOOLS = {
  ip: 'iproute2',
  unshare: 'util-linux',
  nsenter: 'util-linux',
  mount: 'mount',
  umount: 'mount',
  'ssh-keygen': 'openssh-client',
  ssh: 'openssh-client',
  sshd: 'openssh-server',
  hostname: 'hostname',
  useradd: 'passwd',
  usermod: 'passwd',
  chpasswd: 'passwd',
  getent: 'libc-bin',
  sudo: 'sudo',
} as const;
type Tool = keyof typeof TOOLS;

const EXTRA_PATH = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'];

/** Absolute path of a tool; root shells do not always have sbin directories in PATH. */
function findTool(name: Tool): string | null {
  if (name === 'sshd') return existsSync(SSHD) ? SSHD : null;
  const dirs = [...(process.env.PATH ?? '').split(delimiter).filter(Boolean), ...EXTRA_PATH];
  for (const dir of dirs) {
    const candidate = join(dir, name);
    if (existsSync(candidate)) return candidate;
  }
  return null;
}

function tool(name: Tool): string {
  const found = findTool(name);
  if (!found) throw new Error(`${name} is not installed (apt-get install ${TOOLS[name]})`);
  return found;
}

/** Why the lab cannot run on this machine, or null when it can. */
export function labUnsupportedReason(): string | null {
  if (process.platform !== 'linux') return `the lab needs Linux network namespaces (this is ${process.platform})`;
  if (process.getuid?.() !== 0) return 'the lab needs root (it creates network namespaces, a bridge and sshd processes)';
  return null;
}

function assertSupported(): void {
  const reason = labUnsupportedReason();
  if (reason) throw new Error(reason);
  const missing = (Object.keys(TOOLS) as Tool[]).filter((name) => !findTool(name));
  if (missing.length > 0) {
    const packages = [...new Set(missing.map((name) => TOOLS[name]))].join(' ');
    throw new Error(`the lab needs ${missing.join(', ')}: apt-get install ${packages}`);
  }
}

function resolveInstance(options: LabOptions): LabInstance {
  return options.instance ?? 'default';
}

// ---------------------------------------------------------------------------------------------
// Keys

/** OpenSSH's SHA256 fingerprint of a public key line (`ssh-ed25519 AAAA… comment`). */
export function fingerprintOf(publicKeyLine: string): string {
  const blob = publicKeyLine.trim().split(/\s+/)[1];
  if (!blob) throw new Error('not an OpenSSH public key line');
  const digest = createHash('sha256').update(Buffer.from(blob, 'base64')).digest('base64');
  return `SHA256:${digest.replace(/=+$/, '')}`;
}

function readFingerprint(publicKeyPath: string): string | null {
  try {
    return fingerprintOf(readFileSync(publicKeyPath, 'utf8'));
  } catch {
    return null;
  }
}

/** `type blob` of a public key file, without the comment. */
function publicKeyBody(publicKeyPath: string): string {
  const [type, blob] = readFileSync(publicKeyPath, 'utf8').trim().split(/\s+/);
  return `${type} ${blob}`;
}

async function generateKey(path: string, comment: string): Promise<void> {
  rmSync(path, { force: true });
  rmSync(`${path}.pub`, { force: true });
  await run(tool('ssh-keygen'), ['-q', '-t', 'ed25519', '-N', '', '-C', comment, '-f', path]);
}

async function ensureKey(path: string, comment: string): Promise<void> {
  if (existsSync(path) && existsSync(`${path}.pub`)) return;
  await generateKey(path, comment);
}

async function ensureIdentity(layout: LabLayout): Promise<void> {
  mkdirSync(LAB_HOME, { recursive: true, mode: 0o700 });
  mkdirSync(layout.identityDir, { recursive: true, mode: 0o700 });
  await ensureKey(layout.keyPath, `benchlab-lab-${layout.instance}`);
  for (const host of layout.all) await ensureKey(host.hostKey, `${host.hostname}-${layout.instance}`);
}

function writeKnownHosts(layout: LabLayout): void {
  const lines = layout.all.map((host) => `${host.address} ${publicKeyBody(`${host.hostKey}.pub`)}\n`);
  writeFileSync(layout.knownHostsPath, lines.join(''), { mode: 0o644 });
}

// ---------------------------------------------------------------------------------------------
// The sudo user

async function userExists(name: string): Promise<boolean> {
  return (await tryRun(tool('getent'), ['passwd', name])).code === 0;
}

/** Creates the sudo user the first time and keeps its password in the lab's home; never touches a user the lab did not create. */
async function ensureSudoUser(log: (line: string) => void): Promise<void> {
  if (!(await userExists(SUDO_USER))) {
    await run(tool('useradd'), ['--create-home', '--shell', '/bin/bash', '--comment', 'Benchlab lab sudo user', SUDO_USER]);
    writeFileSync(SUDO_USER_MARKER, `created by the Benchlab lab on ${new Date().toISOString()}\n`, { mode: 0o600 });
    log(`created user ${SUDO_USER}`);
  }
  if (!existsSync(SUDO_USER_MARKER)) {
    log(`user ${SUDO_USER} exists but was not created by the lab: its password is left alone`);
    return;
  }
  if (!existsSync(SUDO_PASSWORD_FILE)) {
    writeFileSync(SUDO_PASSWORD_FILE, `${randomBytes(18).toString('base64url')}\n`, { mode: 0o600 });
  }
  const password = readFileSync(SUDO_PASSWORD_FILE, 'utf8').trim();
  await run(tool('chpasswd'), [], { input: `${SUDO_USER}:${password}\n` });
  await run(tool('usermod'), ['--append', '--groups', SUDO_GROUP, SUDO_USER]);
}

// ---------------------------------------------------------------------------------------------
// Runtime files

function sshdConfigText(layout: LabLayout, host: LabHostLayout): string {
  return `# sshd of the Benchlab lab host ${host.hostname} (instance ${layout.instance}), written by tests/lab/lab.ts.
# It is independent of the machine's /etc/ssh/sshd_config.
ListenAddress ${host.address}:${host.port}
HostKey ${host.hostKey}
PidFile ${host.pidFile}
AuthorizedKeysFile ${layout.authorizedKeysDir}/%u
PermitRootLogin prohibit-password
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM yes
LogLevel VERBOSE
PrintMotd no
X11Forwarding no
AllowTcpForwarding yes
MaxStartups 64:30:128
MaxSessions 64
AcceptEnv LANG LC_*
Subsystem sftp internal-sftp

Match User ${SUDO_USER}
    PasswordAuthentication yes
`;
}

function hostsFileText(layout: LabLayout): string {
  const lines = ['127.0.0.1 localhost', '::1 localhost ip6-localhost ip6-loopback'];
  for (const host of layout.all) lines.push(`${host.address} ${host.hostname}`);
  return `${lines.join('\n')}\n`;
}

function writeRuntimeFiles(layout: LabLayout): void {
  rmSync(layout.runDir, { recursive: true, force: true });
  mkdirSync(layout.runDir, { recursive: true, mode: 0o755 });
  // sshd's StrictModes wants the authorized keys file and its directories owned by root and not
  // writable by others.
  mkdirSync(layout.authorizedKeysDir, { mode: 0o755 });
  const publicKey = readFileSync(layout.publicKeyPath, 'utf8');
  for (const user of ['root', SUDO_USER]) writeFileSync(join(layout.authorizedKeysDir, user), publicKey, { mode: 0o644 });
  writeKnownHosts(layout);

  for (const host of layout.all) {
    mkdirSync(host.dir, { mode: 0o755 });
    const copies = host.privateCopies;
    mkdirSync(copies['/etc/security/limits.d'], { recursive: true, mode: 0o755 });
    mkdirSync(copies['/etc/sysctl.d'], { recursive: true, mode: 0o755 });
    mkdirSync(copies['/var/lib/benchlab'], { recursive: true, mode: 0o755 });
    mkdirSync(copies['/root'], { recursive: true, mode: 0o700 });
    for (const dotfile of ['.bashrc', '.profile']) {
      if (existsSync(`/etc/skel/${dotfile}`)) copyFileSync(`/etc/skel/${dotfile}`, join(copies['/root'], dotfile));
    }
    if (existsSync('/etc/security/limits.conf')) copyFileSync('/etc/security/limits.conf', copies['/etc/security/limits.conf']);
    else writeFileSync(copies['/etc/security/limits.conf'], '# limits.conf of a Benchlab lab host\n', { mode: 0o644 });
    writeFileSync(copies['/etc/hosts'], hostsFileText(layout), { mode: 0o644 });
    writeFileSync(host.sshdConfig, sshdConfigText(layout, host), { mode: 0o644 });
  }
}

function readStateFile(layout: LabLayout): StateFile | null {
  try {
    return JSON.parse(readFileSync(layout.statePath, 'utf8')) as StateFile;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------
// Network

function linkExists(name: string): boolean {
  return existsSync(`/sys/class/net/${name}`);
}

const IFF_UP = 0x1;

function linkIsUp(name: string): boolean {
  try {
    return (Number.parseInt(readFileSync(`/sys/class/net/${name}/flags`, 'utf8').trim(), 16) & IFF_UP) !== 0;
  } catch {
    return false;
  }
}

function namespacePath(namespace: string): string {
  return `/run/netns/${namespace}`;
}

/** The `net:[inode]` identity of a named namespace, as /proc/<pid>/ns/net shows it. */
function namespaceIdentity(namespace: string): string | null {
  try {
    return `net:[${statSync(namespacePath(namespace)).ino}]`;
  } catch {
    return null;
  }
}

/** Refuses to build over an address range something else on the machine already uses. */
async function assertSubnetFree(layout: LabLayout): Promise<void> {
  const routes = (await run(tool('ip'), ['-4', 'route', 'show', 'root', layout.subnet])).stdout.trim();
  if (routes) throw new Error(`the lab's subnet ${layout.subnet} is already routed on this machine:\n${routes}`);
  const net = layout.subnet.split('.').slice(0, 3).join('.');
  const addresses = JSON.parse((await run(tool('ip'), ['-j', '-4', 'addr', 'show'])).stdout || '[]') as Array<{
    ifname: string;
    addr_info?: Array<{ local?: string }>;
  }>;
  for (const link of addresses) {
    const clash = link.addr_info?.find((info) => info.local?.startsWith(`${net}.`));
    if (clash) throw new Error(`the lab's subnet ${layout.subnet} is in use: ${link.ifname} has ${clash.local}`);
  }
}

async function buildNetwork(layout: LabLayout): Promise<void> {
  const ip = tool('ip');
  await run(ip, ['link', 'add', layout.bridge, 'type', 'bridge']);
  await run(ip, ['addr', 'add', `${layout.bridgeAddress}/${layout.prefixLength}`, 'dev', layout.bridge]);
  await run(ip, ['link', 'set', layout.bridge, 'up']);
  for (const host of layout.all) {
    await run(ip, ['netns', 'add', host.namespace]);
    await run(ip, ['link', 'add', host.vethRoot, 'type', 'veth', 'peer', 'name', host.vethInside, 'netns', host.namespace]);
    await run(ip, ['link', 'set', host.vethRoot, 'master', layout.bridge]);
    await run(ip, ['link', 'set', host.vethRoot, 'up']);
    await run(ip, ['-n', host.namespace, 'link', 'set', 'lo', 'up']);
    await run(ip, ['-n', host.namespace, 'addr', 'add', `${host.address}/${layout.prefixLength}`, 'dev', host.vethInside]);
    await run(ip, ['-n', host.namespace, 'link', 'set', host.vethInside, 'up']);
  }
}

// ---------------------------------------------------------------------------------------------
// sshd

/**
 * Runs inside the host's network namespace and its new mount and UTS namespaces: sets the
 * hostname, puts the lab's copies over the machine's files, makes the machine-wide sysctls
 * read-only (only net.* is per namespace, so a preset must not reach the rest), then becomes sshd,
 * which daemonizes and keeps these namespaces for every login.
 * Arguments: hostname, sshd config, sshd log, then (lab copy, machine path) pairs.
 */
const HOST_BOOT_SCRIPT = `set -e
hostname "$1"
config="$2"
log="$3"
shift 3
while [ "$#" -gt 0 ]; do
  mount --bind "$1" "$2"
  shift 2
done
mount --bind /proc/sys /proc/sys
mount -o remount,bind,ro /proc/sys
mount --bind /proc/sys/net /proc/sys/net
mount -o remount,bind,rw /proc/sys/net
exec ${SSHD} -f "$config" -E "$log"
`;

/** Mount points in a process's mount namespace. */
function mountPointsOf(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/mountinfo`, 'utf8')
      .split('\n')
      .map((line) => line.split(' ')[4] ?? '')
      .filter(Boolean);
  } catch {
    return [];
  }
}

function readPid(pidFile: string): number | null {
  try {
    const pid = Number.parseInt(readFileSync(pidFile, 'utf8').trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** The pid of the host's listening sshd, if the pidfile names a live sshd started with this host's config. */
function sshdPidOf(host: LabHostLayout): number | null {
  const pid = readPid(host.pidFile);
  if (pid === null || !isAlive(pid)) return null;
  // sshd rewrites its command line into one title ("sshd: /usr/sbin/sshd -f … [listener] …").
  const title = readCmdline(pid)?.join(' ') ?? '';
  return title.includes(` -f ${host.sshdConfig}`) ? pid : null;
}

async function startSshd(host: LabHostLayout): Promise<void> {
  // sshd's privilege separation directory; Debian's service unit normally creates it.
  mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  // A bind mount needs a mount point: an empty directory on the machine, never written through.
  mkdirSync('/var/lib/benchlab', { recursive: true, mode: 0o755 });
  const bindPairs = PRIVATE_PATHS.flatMap((path) => [host.privateCopies[path], path]);
  const startLog = join(host.dir, 'sshd-start.log');
  const fd = openSync(startLog, 'w', 0o644);
  let result: RunResult;
  try {
    result = await tryRun(
      tool('ip'),
      [
        'netns', 'exec', host.namespace,
        tool('unshare'), '--mount', '--uts', '--propagation', 'private', '--',
        '/bin/sh', '-c', HOST_BOOT_SCRIPT, 'lab-host-boot', host.hostname, host.sshdConfig, host.logFile, ...bindPairs,
      ],
      { stdio: fd, timeoutMs: SSHD_START_MS },
    );
  } finally {
    closeSync(fd);
  }
  const startOutput = readFileSync(startLog, 'utf8').trim();
  if (result.code !== 0) {
    throw new Error(`sshd of ${host.hostname} did not start (${result.timedOut ? 'timed out' : `exit ${result.code}`}): ${startOutput}`);
  }
  const ready = await waitFor(() => {
    const pid = sshdPidOf(host);
    return pid !== null && isListening(pid, host.address, host.port);
  }, SSHD_START_MS);
  if (!ready) {
    const log = existsSync(host.logFile) ? readFileSync(host.logFile, 'utf8').trim().split('\n').slice(-5).join('\n') : '';
    throw new Error(`sshd of ${host.hostname} is not listening on ${host.address}:${host.port} after ${SSHD_START_MS / 1000} s: ${log || startOutput}`);
  }
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
// Status

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
function currentLayout(instance: LabInstance): LabLayout {
  return labLayout(instance, labClientCount(instance));
}

export async function labStatus(options: LabOptions = {}): Promise<LabStatus> {
  const layout = currentLayout(resolveInstance(options));
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

/** The sudo user's password, when the lab created that user. */
export function labSudoPassword(): string | null {
  if (!existsSync(SUDO_USER_MARKER)) return null;
  try {
    return readFileSync(SUDO_PASSWORD_FILE, 'utf8').trim();
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------
// CLI

const USAGE = `usage: npm run lab -- <command> [options]
  up [--clients N] [--register] [--data-dir DIR]
                                     bring the lab up with N client hosts (default 1; a running
                                     lab is left as it is, or rebuilt if it has another count)
  down [--purge]                     stop it and remove namespaces, links, mounts, processes
                                     of the server and every client
                                     (--purge also deletes its keys in ${LAB_HOME})
  status [--json]                    show its state (exit 0 up, 1 broken, 3 down)
  register [--data-dir DIR]          register lab-server and every client (lab-client,
                                     lab-client2, …) in Benchlab's store
common: --instance ${LAB_INSTANCES.join('|')} (default: default)`;

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      register: { type: 'boolean', default: false },
      clients: { type: 'string' },
      'data-dir': { type: 'string' },
      json: { type: 'boolean', default: false },
      purge: { type: 'boolean', default: false },
      instance: { type: 'string', default: 'default' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const command = positionals[0];
  if (values.help || !command || positionals.length > 1) {
    console.log(USAGE);
    return values.help ? 0 : 2;
  }
  if (!isLabInstance(values.instance)) {
    console.error(`unknown instance "${values.instance}" (known: ${LAB_INSTANCES.join(', ')})`);
    return 2;
  }
  const instance = values.instance;
  const clients = values.clients === undefined ? undefined : Number(values.clients);
  if (clients !== undefined && !(Number.isInteger(clients) && clients >= 1 && clients <= MAX_LAB_CLIENTS)) {
    console.error(`--clients takes a whole number from 1 to ${MAX_LAB_CLIENTS}, not "${values.clients}"`);
    return 2;
  }
  const log = (line: string) => console.log(`lab: ${line}`);
  const printRegistration = (registered: RegisterResult) => {
    console.log(`registered in ${registered.databaseFile}: ${registered.added.length > 0 ? registered.added.join(', ') : 'nothing new'}`);
    for (const skipped of registered.skipped) console.log(`  skipped ${skipped.name}: already registered (address ${skipped.address})`);
    for (const notice of registered.notices) console.log(`  notice: ${notice}`);
  };

  switch (command) {
    case 'up': {
      const result = await labUp({
        instance,
        log,
        ...(clients === undefined ? {} : { clients }),
        register: values.register,
        ...(values['data-dir'] === undefined ? {} : { dataDir: values['data-dir'] }),
      });
      console.log(result.alreadyUp ? `lab was already up (checked in ${result.seconds} s)` : `lab up in ${result.seconds} s`);
      console.log(formatStatus(result.status));
      if (result.registered) printRegistration(result.registered);
      return 0;
    }
    case 'down': {
      const result = await labDown({ instance, log, purge: values.purge });
      if (result.leftovers.length === 0) {
        console.log(`lab down in ${result.seconds} s: no namespace, link, mount or process left`);
        return 0;
      }
      console.error(`lab down left behind:\n  ${result.leftovers.join('\n  ')}`);
      return 1;
    }
    case 'status': {
      const reason = labUnsupportedReason();
      if (reason) throw new Error(reason);
      const status = await labStatus({ instance });
      console.log(values.json ? JSON.stringify(status, null, 2) : formatStatus(status));
      return status.state === 'up' ? 0 : status.state === 'down' ? 3 : 1;
    }
    case 'register': {
      printRegistration(await registerHosts(currentLayout(instance), values['data-dir']));
      return 0;
    }
    default:
      console.error(`unknown command "${command}"\n${USAGE}`);
      return 2;
  }
}

/** True when this file is the program (`node tests/lab/lab.ts …`), not an import. */
function invokedAsProgram(): boolean {
  const script = process.argv[1];
  if (!script) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (invokedAsProgram()) {
  // A closed pipe (`npm run lab -- up | head`) must not abort an up or down half-way.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
    });
  }
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(`lab: ${error instanceof Error ? error.message : String(error)}`);
      process.exitCode = 1;
    },
  );
}
