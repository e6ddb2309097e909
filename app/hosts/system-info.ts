// What Benchlab records about a host at connect time and at session start (host_snapshot), and the
// pure reading of the probe scripts' output (the scripts themselves run from main/, which owns I/O):
// parseSystemInfoOutput for the system info script, parseReachabilityOutput for the TCP connect test.

import { z } from 'zod';
import { median } from '../common/median.ts';
import { splitSections } from '../common/script-sections.ts';

export const TRACKED_SYSCTLS = [
  'net.ipv4.ip_local_port_range',
  'net.ipv4.tcp_tw_reuse',
  'net.core.somaxconn',
  'net.ipv4.tcp_max_syn_backlog',
  'net.core.netdev_max_backlog',
  'net.ipv4.tcp_fin_timeout',
  'fs.file-max',
  'fs.nr_open',
] as const;

const Limit = z.object({ soft: z.string(), hard: z.string() });

export const SystemInfo = z.object({
  hostname: z.string(),
  distro: z.string(),
  kernel: z.string(),
  arch: z.string(),
  cpuModel: z.string(),
  cpuCores: z.number().int(),
  memoryBytes: z.number(),
  limits: z.object({ nofile: Limit, nproc: Limit }),
  /** Every TRACKED_SYSCTLS key; null when the kernel does not have it. */
  sysctls: z.record(z.string(), z.string().nullable()),
  /** Version strings of runtimes found on PATH, null when absent. */
  runtimes: z.object({ node: z.string().nullable(), java: z.string().nullable(), apache: z.string().nullable() }),
  takenAt: z.string(),
});
export type SystemInfo = z.infer<typeof SystemInfo>;

export const Reachability = z.object({
  from: z.number(),
  to: z.number(),
  reachable: z.boolean(),
  /** Median round trip of a few TCP connects to the server's SSH port, in ms. */
  rttMs: z.number().nullable(),
  message: z.string().nullable(),
});
export type Reachability = z.infer<typeof Reachability>;

// ---------------------------------------------------------------------------------------------
// System info script output

/**
 * Starts every section of the system info script's output, as `<marker> <section name>` on a line
 * of its own: output of any one command cannot be mistaken for another section's.
 */
export const SYSTEM_INFO_MARKER = '@@benchlab-section@@';

/** Section names the script prints; `sysctl <key>` follows for each TRACKED_SYSCTLS key. */
export const SYSTEM_INFO_SECTIONS = [
  'hostname',
  'os-release',
  'release-file',
  'kernel',
  'arch',
  'cpuinfo',
  'lscpu',
  'nproc',
  'meminfo',
  'nofile-soft',
  'nofile-hard',
  'nproc-soft',
  'nproc-hard',
  'proc-limits',
  'node',
  'java',
  'apache',
  'end',
] as const;

/** Shown for a field the host did not reveal (the schema has no null for these). */
export const UNKNOWN = 'unknown';

function firstLine(lines: string[] | undefined): string | null {
  const line = lines?.find((candidate) => candidate.trim() !== '');
  return line === undefined ? null : line.trim();
}

/** `KEY=value` from an os-release file, with its shell-style quoting undone. */
function osReleaseValue(lines: string[], key: string): string | null {
  for (const line of lines) {
    const match = new RegExp(`^\\s*${key}=(.*)$`).exec(line);
    if (!match) continue;
    let value = match[1]!.trim();
    if (value.length >= 2 && (value[0] === '"' || value[0] === "'") && value.endsWith(value[0]!)) {
      const quote = value[0];
      value = value.slice(1, -1);
      if (quote === '"') value = value.replace(/\\(["\\$`])/g, '$1');
    }
    return value === '' ? null : value;
  }
  return null;
}

function distroOf(sections: Map<string, string[]>): string {
  const osRelease = sections.get('os-release') ?? [];
  const pretty = osReleaseValue(osRelease, 'PRETTY_NAME');
  if (pretty) return pretty;
  const name = osReleaseValue(osRelease, 'NAME');
  if (name) return [name, osReleaseValue(osRelease, 'VERSION') ?? osReleaseValue(osRelease, 'VERSION_ID')].filter(Boolean).join(' ');
  return firstLine(sections.get('release-file')) ?? UNKNOWN;
}

/** `key : value` lines of /proc/cpuinfo or `key: value` lines of lscpu. */
function colonValue(lines: string[] | undefined, key: string): string | null {
  for (const line of lines ?? []) {
    const match = /^([^:]+?)\s*:\s*(.*)$/.exec(line);
    if (match && match[1] === key && match[2]!.trim() !== '') return match[2]!.trim();
  }
  return null;
}

function cpuModelOf(sections: Map<string, string[]>): string {
  const cpuinfo = sections.get('cpuinfo');
  // x86 says "model name"; arm64 kernels often say nothing, so lscpu (which decodes the part
  // numbers) comes next; then the fields older ARM, Raspberry Pi, MIPS and POWER kernels use.
  return (
    colonValue(cpuinfo, 'model name') ??
    colonValue(sections.get('lscpu'), 'Model name') ??
    colonValue(cpuinfo, 'Model') ??
    colonValue(cpuinfo, 'Hardware') ??
    colonValue(cpuinfo, 'cpu model') ??
    colonValue(cpuinfo, 'Processor') ??
    colonValue(cpuinfo, 'cpu') ??
    UNKNOWN
  );
}

function cpuCoresOf(sections: Map<string, string[]>): number {
  const nproc = firstLine(sections.get('nproc'));
  if (nproc && /^\d+$/.test(nproc) && Number(nproc) > 0) return Number(nproc);
  return (sections.get('cpuinfo') ?? []).filter((line) => /^processor\s*:/.test(line)).length;
}

function memoryBytesOf(sections: Map<string, string[]>): number {
  const match = /^MemTotal:\s*(\d+)\s*kB/i.exec(firstLine(sections.get('meminfo')) ?? '');
  return match ? Number(match[1]) * 1024 : 0;
}

/** A limit as ulimit prints it: a number or "unlimited"; anything else is not one. */
function limitValue(text: string | null | undefined): string | null {
  if (!text) return null;
  const value = text.trim().toLowerCase();
  return /^\d+$/.test(value) || value === 'unlimited' ? value : null;
}

/** Soft and hard columns of a /proc/self/limits row ("Max processes   63459   63459   processes"). */
function procLimit(sections: Map<string, string[]>, row: string): { soft: string | null; hard: string | null } {
  const line = (sections.get('proc-limits') ?? []).find((candidate) => candidate.startsWith(row));
  const [soft, hard] = line ? line.slice(row.length).trim().split(/\s+/) : [];
  return { soft: limitValue(soft), hard: limitValue(hard) };
}

function limitsOf(sections: Map<string, string[]>, name: 'nofile' | 'nproc'): { soft: string; hard: string } {
  // dash has no `ulimit -u` (its -p is nproc, bash's -p is the pipe size): /proc/self/limits of a
  // child of the same login shell carries the same limits, whatever the shell.
  const fallback = procLimit(sections, name === 'nofile' ? 'Max open files' : 'Max processes');
  return {
    soft: limitValue(firstLine(sections.get(`${name}-soft`))) ?? fallback.soft ?? UNKNOWN,
    hard: limitValue(firstLine(sections.get(`${name}-hard`))) ?? fallback.hard ?? UNKNOWN,
  };
}

function sysctlsOf(sections: Map<string, string[]>): Record<string, string | null> {
  const sysctls: Record<string, string | null> = {};
  for (const key of TRACKED_SYSCTLS) {
    // ip_local_port_range reads "32768\t60999": one space, as people write it in sysctl.d.
    const value = (sections.get(`sysctl ${key}`) ?? []).join(' ').trim().replace(/\s+/g, ' ');
    sysctls[key] = value === '' ? null : value;
  }
  return sysctls;
}

function runtimesOf(sections: Map<string, string[]>): SystemInfo['runtimes'] {
  const node = firstLine(sections.get('node'));
  // `java -version` may first say "Picked up JAVA_TOOL_OPTIONS: …"; the version line names itself.
  const javaLines = sections.get('java') ?? [];
  const java = javaLines.find((line) => /\bversion\s+"/.test(line))?.trim() ?? null;
  const apacheLine = (sections.get('apache') ?? []).find((line) => /^Server version:/i.test(line.trim()));
  const apache = apacheLine ? apacheLine.trim().replace(/^Server version:\s*/i, '') : null;
  return { node: node && /^v?\d/.test(node) ? node : null, java, apache: apache || null };
}

/**
 * Reads the system info script's output. Throws when the text is not that output, or stops before
 * the end (a killed or truncated run must not be stored as a snapshot).
 */
export function parseSystemInfoOutput(text: string, takenAt: string): SystemInfo {
  const sections = splitSections(text, SYSTEM_INFO_MARKER, (line) => line.trimEnd());
  if (sections.size === 0) throw new Error('the output holds no system info sections (the script did not run)');
  if (!sections.has('end')) {
    const last = [...sections.keys()].pop();
    throw new Error(`the system info output is incomplete (it stops after the "${last}" section)`);
  }
  return SystemInfo.parse({
    hostname: firstLine(sections.get('hostname')) ?? UNKNOWN,
    distro: distroOf(sections),
    kernel: firstLine(sections.get('kernel')) ?? UNKNOWN,
    arch: firstLine(sections.get('arch')) ?? UNKNOWN,
    cpuModel: cpuModelOf(sections),
    cpuCores: cpuCoresOf(sections),
    memoryBytes: memoryBytesOf(sections),
    limits: { nofile: limitsOf(sections, 'nofile'), nproc: limitsOf(sections, 'nproc') },
    sysctls: sysctlsOf(sections),
    runtimes: runtimesOf(sections),
    takenAt,
  });
}

// ---------------------------------------------------------------------------------------------
// Reachability test output

/** What was tested, for the messages. */
export interface ReachabilityTarget {
  address: string;
  port: number;
  /** The bound on the first connect, for the message when nothing answers. */
  timeoutSeconds: number;
}

function explainFailure(target: ReachabilityTarget, code: number, errors: string[]): string {
  const where = `${target.address}:${target.port}`;
  const said = errors.join(' ');
  // 137/143: our watchdog killed the connect (KILL/TERM); nc says "timed out" or "in progress".
  if (code === 137 || code === 143 || /timed out|in progress/i.test(said)) {
    return `no answer from ${where} within ${target.timeoutSeconds} s: host down, or a firewall drops the traffic`;
  }
  if (/refused/i.test(said)) return `${where} refused the connection: nothing listens on port ${target.port}, or a firewall rejects it`;
  if (/no route to host/i.test(said)) return `the client host has no route to ${target.address}`;
  if (/network is unreachable/i.test(said)) return `the client host has no network path to ${target.address} (network unreachable)`;
  if (/name or service not known|not known|unknown host|could not resolve|name resolution|bad address/i.test(said)) {
    return `the client host cannot resolve the name "${target.address}"`;
  }
  const detail = errors.length > 0 ? errors.map((line) => line.replace(/^[\w.-]+(: line \d+)?:\s*/, '')).join('; ') : `exit code ${code}`;
  return `the client host cannot connect to ${where} (${detail})`;
}

/**
 * Reads the reachability script's output into the result the Hosts page shows. The script prints,
 * one per line: `method bash|nc|none`; `probe <exit code>` for the first, time-bounded connect;
 * `error <text>` for what that connect said when it failed; for each timed connect after it
 * `sample <1 ok|0 failed> <connect µs> <clock overhead µs>`; then `end`.
 */
export function parseReachabilityOutput(text: string, ids: { from: number; to: number }, target: ReachabilityTarget): Reachability {
  const lines = text.split(/\r?\n/).map((line) => line.trim());
  const method = lines.find((line) => line.startsWith('method '))?.slice('method '.length) ?? null;
  const result = (reachable: boolean, rttMs: number | null, message: string | null): Reachability => ({ ...ids, reachable, rttMs, message });

  if (method === 'none') {
    return result(false, null, `unknown: the client host has neither bash nor an nc with -z, so a TCP connection to ${target.address}:${target.port} could not be tried`);
  }
  const probe = lines.find((line) => line.startsWith('probe '));
  if (method === null || probe === undefined) return result(false, null, 'the reachability test did not run on the client host');
  const code = Number(probe.slice('probe '.length));
  const errors = lines.filter((line) => line.startsWith('error ')).map((line) => line.slice('error '.length).trim()).filter(Boolean);
  if (code !== 0) return result(false, null, explainFailure(target, code, errors));

  const timed = lines
    .filter((line) => line.startsWith('sample '))
    .map((line) => line.split(/\s+/).slice(1).map(Number))
    .filter((fields) => fields.length === 3 && fields.every((field) => Number.isFinite(field) && field >= 0));
  const samples = timed.filter((fields) => fields[0] === 1);
  const notes: string[] = [];
  if (samples.length < timed.length) notes.push(`${timed.length - samples.length} of ${timed.length} timed connects failed after the first one succeeded`);
  if (method === 'nc' && samples.length > 0) notes.push('timed around nc, so it includes starting nc: an upper bound');
  if (samples.length === 0) {
    notes.unshift(
      timed.length === 0
        ? `connected to ${target.address}:${target.port}, but no round trip could be timed (the client host's clock gives no sub-second reading)`
        : `connected to ${target.address}:${target.port} once, but no round trip could be timed`,
    );
    return result(true, null, notes.join('; '));
  }
  // Each sample's connect time includes reading the clock once; take that cost (measured alone) off.
  const connect = median(samples.map((fields) => fields[1]!));
  const overhead = median(samples.map((fields) => fields[2]!));
  const rttMs = Math.round(Math.max(0, connect - overhead)) / 1000;
  return result(true, rttMs, notes.length > 0 ? notes.join('; ') : null);
}
