// The soak's lab: one lab instance's two hosts (a lane of tests/soak/injections.ts), a counting HTTP server on the server host (its own
// process, started with nsenter into the host, so it can be killed and started again), the load
// agents' pids and pid files as the hosts hold them, and what a fault left behind on each host.
// Lab hosts share the machine's pid namespace and clock: their processes are read from /proc here
// and their times compare with the soak's own.

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { labLayout, labStatus, labUp, LAB_ROLES, type LabRole } from '../lab/lab.ts';
import type { LabInstance } from '../lab/layout.ts';
import { isAlive, listPids, netNamespaceOf, readCmdline } from '../lab/system.ts';
import { labTargets } from '../support/lab-hosts.ts';
import { until, within } from '../support/until.ts';
import { agentPidFileName } from '../../main/services/runs/agent-host.ts';

const COUNTING_SERVER = resolve(import.meta.dirname, 'counting-server.ts');
const SERVER_PORT = 18480;

export interface CountingServer {
  url: string;
  pid(): number;
  answered(): number;
  /** When the last request arrived (epoch ms), as the server said it last. */
  lastRequestAt(): number;
  /** Resolves once the server has reported on a moment after `at`, so its figures cover `at`. */
  reportedAfter(at: number): Promise<void>;
  kill(): void;
  /** Starts it again after a kill. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export interface SoakLab {
  /** The lab instance (the soak's own, or a lab test's that uses the same building blocks). */
  instance: LabInstance;
  targets: Awaited<ReturnType<typeof labTargets>>;
  /** The hosts as tests/support/run-child.ts connects them. */
  connect: Array<{ name: string; address: string; keyPath: string; fingerprint: string }>;
  server: CountingServer;
  close(): Promise<void>;
}

export async function openSoakLab(instance: LabInstance): Promise<SoakLab> {
  await labUp({ instance });
  const targets = await labTargets(instance);
  const connect = LAB_ROLES.map((role) => ({
    name: `lab-${role}`,
    address: targets[role].address,
    keyPath: targets.keyPath,
    fingerprint: targets[role].pinnedFingerprint!,
  }));
  const server = await startCountingServer(instance, targets.server.address);
  return { instance, targets, connect, server, close: () => server.close() };
}

async function startCountingServer(instance: LabInstance, address: string): Promise<CountingServer> {
  let child: ChildProcess;
  let answered = 0;
  let lastRequestAt = 0;
  let reportedAt = 0;
  const start = async () => {
    const sshd = (await labStatus({ instance })).hosts.server.sshdPid;
    if (sshd === null) throw new Error('the soak lab server host is not running');
    child = spawn('nsenter', ['--target', String(sshd), '--net', '--mount', '--uts', '--', process.execPath, COUNTING_SERVER, address, String(SERVER_PORT)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let buffer = '';
    let listening: () => void;
    const ready = new Promise<void>((done) => (listening = done));
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const lines = buffer.split('\n');
      buffer = lines.pop()!;
      for (const line of lines) {
        const report = JSON.parse(line) as { listening?: true; answered?: number; lastRequestAt?: number; now: number };
        if (report.listening) listening();
        if (report.answered !== undefined) answered = report.answered;
        if (report.lastRequestAt !== undefined) lastRequestAt = report.lastRequestAt;
        reportedAt = report.now;
      }
    });
    await within(ready, 'the counting server to listen', 10_000);
  };
  await start();
  const kill = () => {
    child.kill('SIGKILL');
  };
  return {
    url: `http://${address}:${SERVER_PORT}`,
    pid: () => child.pid!,
    answered: () => answered,
    lastRequestAt: () => lastRequestAt,
    reportedAfter: async (at) => {
      await until(() => reportedAt > at, 'the counting server to report', 5000, 20);
    },
    kill,
    restart: async () => {
      await until(() => !isAlive(child.pid!), 'the counting server to end', 5000, 20);
      await start();
    },
    close: async () => {
      kill();
      await until(() => !isAlive(child.pid!), 'the counting server to end', 5000, 20);
    },
  };
}

/** The pid-file directory a lab host's agents use, seen from here through the host's private copy. */
function pidDir(role: LabRole, instance: LabInstance): string {
  const host = labLayout(instance).hosts[role];
  return join(host.privateCopies['/var/lib/benchlab'], 'agent', 'pids', host.hostname);
}

/** This data dir's pid files on a host (`owner` from agentOwner), by name. */
export function pidFiles(role: LabRole, owner: string, instance: LabInstance): string[] {
  const dir = pidDir(role, instance);
  return existsSync(dir) ? readdirSync(dir).filter((name) => name.startsWith(`${owner}-`)) : [];
}

/** The pid in a pid file of this data dir's agent of `role` for a session, or null. */
export function agentPid(role: LabRole, owner: string, sessionId: number, agentRole: 'load' | 'sampler', instance: LabInstance): number | null {
  const file = join(pidDir(role, instance), agentPidFileName(owner, sessionId, agentRole));
  if (!existsSync(file)) return null;
  const pid = Number(readFileSync(file, 'utf8').trim());
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

/**
 * What a fault left on the hosts: agents still running, this data dir's pid files, and any other
 * process in a host but its listening sshd and the counting server. Waits up to `settleMs` for
 * them to go (a login ends when its TCP connection does), then names what is still there.
 */
export async function leftovers(lab: SoakLab, owner: string, settleMs: number): Promise<string[]> {
  const status = await labStatus({ instance: lab.instance });
  const find = (): string[] => {
    const found: string[] = [];
    for (const role of LAB_ROLES) {
      const sshd = status.hosts[role].sshdPid;
      if (sshd === null) continue;
      const namespace = netNamespaceOf(sshd);
      for (const pid of listPids()) {
        if (pid === sshd || pid === lab.server.pid() || netNamespaceOf(pid) !== namespace || !isAlive(pid)) continue;
        const command = (readCmdline(pid) ?? []).join(' ');
        found.push(`${role}: ${command.includes('benchlab-agent') ? 'agent' : 'process'} ${pid} (${command.slice(0, 80)})`);
      }
      for (const file of pidFiles(role, owner, lab.instance)) found.push(`${role}: pid file ${file}`);
    }
    return found;
  };
  try {
    await until(() => find().length === 0, 'the hosts to be clean', settleMs, 100);
    return [];
  } catch {
    return find();
  }
}

/**
 * Holds a fault injected at `since` for `ms` whatever happens meanwhile (it is the fault, not a wait
 * for a state), then until the counting server has reported on the moment it ends.
 */
export async function holdFault(lab: SoakLab, since: number, ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms - (Date.now() - since)));
  await lab.server.reportedAfter(Date.now());
}

/** When (epoch ms) a process is gone, polled every 10 ms; null if it still runs after `timeoutMs`. */
export function goneAt(pid: number, timeoutMs: number): Promise<number | null> {
  return until(() => !isAlive(pid), `process ${pid} to end`, timeoutMs, 10)
    .then(() => Date.now())
    .catch(() => null);
}
