// The lab's view of the machine: commands run with a time limit, and what /proc says about
// processes, their namespaces, listening sockets and mounts. Reading /proc instead of probing the
// hosts over TCP keeps `status` out of the sshd logs that tests inspect.

import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { endianness } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';

export interface RunOptions {
  timeoutMs?: number;
  /** Written to the command's stdin, so secrets never appear in argv. */
  input?: string;
  /**
   * Where stdout and stderr go. A file descriptor suits commands that leave a daemon behind: the
   * daemon could hold pipes open, and this would wait for it.
   */
  stdio?: 'pipe' | 'ignore' | number;
}

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

const DEFAULT_TIMEOUT_MS = 15_000;

export class CommandError extends Error {
  readonly result: RunResult;
  constructor(command: string, result: RunResult) {
    const why = result.timedOut
      ? 'timed out'
      : result.signal
        ? `was killed by ${result.signal}`
        : `exited with code ${result.code}`;
    const detail = (result.stderr.trim() || result.stdout.trim()).split('\n').slice(-5).join('\n');
    super(`\`${command}\` ${why}${detail ? `: ${detail}` : ''}`);
    this.name = 'CommandError';
    this.result = result;
  }
}

export function describeCommand(file: string, args: readonly string[]): string {
  return [file, ...args].map((part) => (/^[\w@%+=:,./-]+$/.test(part) ? part : JSON.stringify(part))).join(' ');
}

/** Runs a command and reports how it ended; never throws for a non-zero exit. */
export function tryRun(file: string, args: readonly string[], options: RunOptions = {}): Promise<RunResult> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      stdio: [options.input === undefined ? 'ignore' : 'pipe', options.stdio ?? 'pipe', options.stdio ?? 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`could not run ${file}: ${error.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, timedOut });
    });
    if (options.input !== undefined) child.stdin?.end(options.input);
  });
}

/** Runs a command and throws a CommandError with its stderr unless it exits 0. */
export async function run(file: string, args: readonly string[], options: RunOptions = {}): Promise<RunResult> {
  const result = await tryRun(file, args, options);
  if (result.code !== 0) throw new CommandError(describeCommand(file, args), result);
  return result;
}

export function listPids(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number);
}

export function readCmdline(pid: number): string[] | null {
  try {
    const raw = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    const parts = raw.split('\0');
    if (parts.at(-1) === '') parts.pop();
    return parts;
  } catch {
    return null;
  }
}

/** The `net:[inode]` identity of a process's network namespace, or null when the process is gone. */
export function netNamespaceOf(pid: number): string | null {
  try {
    return readlinkSync(`/proc/${pid}/ns/net`);
  } catch {
    return null;
  }
}

/** True for a live process; a zombie counts as gone since it holds nothing but its pid. */
export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/** Processes whose command line mentions `needle` (e.g. a lab directory). */
export function pidsMentioning(needle: string): number[] {
  return listPids().filter((pid) => pid !== process.pid && (readCmdline(pid)?.some((part) => part.includes(needle)) ?? false));
}

/** /proc/net/tcp prints an IPv4 address as the in-memory u32, i.e. byte-reversed on little-endian machines. */
function procTcpAddress(address: string, port: number): string {
  const bytes = address.split('.').map(Number);
  const ordered = endianness() === 'LE' ? bytes.reverse() : bytes;
  const hex = ordered.map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex}:${port.toString(16).padStart(4, '0')}`.toUpperCase();
}

const TCP_LISTEN = '0A';

/** Whether a socket listens on address:port in the network namespace of `pid`. */
export function isListening(pid: number, address: string, port: number): boolean {
  let table: string;
  try {
    table = readFileSync(`/proc/${pid}/net/tcp`, 'utf8');
  } catch {
    return false;
  }
  const wanted = procTcpAddress(address, port);
  return table
    .split('\n')
    .slice(1)
    .some((line) => {
      const fields = line.trim().split(/\s+/);
      return fields[1] === wanted && fields[3] === TCP_LISTEN;
    });
}

/** Mount points as this process sees them (the root mount namespace for the lab CLI). */
export function mountPoints(): string[] {
  const unescape = (text: string) => text.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)));
  return readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => unescape(line.split(' ')[4] ?? ''));
}

export async function waitFor(check: () => boolean, timeoutMs: number, intervalMs = 25): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (check()) return true;
    if (Date.now() >= deadline) return false;
    await sleep(intervalMs);
  }
}

/** SIGTERM, then SIGKILL for whatever is still alive after `graceMs`. Returns the pids that survived both. */
export async function terminate(pids: readonly number[], graceMs = 3000): Promise<number[]> {
  const targets = [...new Set(pids)].filter((pid) => pid > 1 && pid !== process.pid);
  const signal = (sig: NodeJS.Signals) => {
    for (const pid of targets) {
      try {
        process.kill(pid, sig);
      } catch {
        // already gone
      }
    }
  };
  const allGone = () => targets.every((pid) => !isAlive(pid));
  signal('SIGTERM');
  if (await waitFor(allGone, graceMs)) return [];
  signal('SIGKILL');
  await waitFor(allGone, 2000);
  return targets.filter(isAlive);
}
