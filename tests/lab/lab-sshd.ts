// Each lab host as a machine of its own: its runtime files (sshd config, /etc/hosts, the private
// copies mounted over the machine's files, the state file), and its sshd started inside its network,
// mount and UTS namespaces, found again by its pidfile and config.

import { closeSync, copyFileSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PRIVATE_PATHS, SUDO_USER, type LabHostLayout, type LabInstance, type LabLayout } from './layout.ts';
import { writeKnownHosts } from './lab-identity.ts';
import { SSHD, tool } from './lab-tools.ts';
import { isAlive, isListening, readCmdline, tryRun, waitFor, type RunResult } from './system.ts';

export const SSHD_START_MS = 10_000;

/** What `lab up` leaves in the instance's run dir: when, and with how many clients. */
export interface StateFile {
  instance: LabInstance;
  startedAt: string;
  /** Absent in state files written before the lab had several clients: one. */
  clients?: number;
}

function sshdConfigText(layout: LabLayout, host: LabHostLayout): string {
  return `# sshd of the Benchlab lab host ${host.hostname} (instance ${layout.instance}), written by the Benchlab lab.
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

export function writeRuntimeFiles(layout: LabLayout): void {
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

export function readStateFile(layout: LabLayout): StateFile | null {
  try {
    return JSON.parse(readFileSync(layout.statePath, 'utf8')) as StateFile;
  } catch {
    return null;
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
export function mountPointsOf(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/mountinfo`, 'utf8')
      .split('\n')
      .map((line) => line.split(' ')[4] ?? '')
      .filter(Boolean);
  } catch {
    return [];
  }
}

export function readPid(pidFile: string): number | null {
  try {
    const pid = Number.parseInt(readFileSync(pidFile, 'utf8').trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** The pid of the host's listening sshd, if the pidfile names a live sshd started with this host's config. */
export function sshdPidOf(host: LabHostLayout): number | null {
  const pid = readPid(host.pidFile);
  if (pid === null || !isAlive(pid)) return null;
  // sshd rewrites its command line into one title ("sshd: /usr/sbin/sshd -f … [listener] …").
  const title = readCmdline(pid)?.join(' ') ?? '';
  return title.includes(` -f ${host.sshdConfig}`) ? pid : null;
}

export async function startSshd(host: LabHostLayout): Promise<void> {
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
