// What a host was during a session, and what on it makes results unrepeatable. Owns the schema of a
// session's host facts (system info plus the server process's own limits, the preset in effect,
// CPU governor and turbo, load, busy processes, swap activity, machine and boot ids), the reading
// of the facts script's output, and the noise findings drawn from every host's readings (each client
// of a session and its server). The script
// runs from main/ (which owns I/O); the findings are data, rendered by one UI component.

import { z } from 'zod';
import { splitSections } from '../common/script-sections.ts';
import { SystemInfo } from './system-info.ts';

export const FACTS_MARKER = '@@benchlab-facts@@';

/** A process using at least this share of one core over the sampled second is named as busy. */
export const BUSY_PROCESS_PERCENT = 10;
/** Processes kept in the facts, busiest first (those above 1 % of a core). */
export const BUSY_PROCESSES_KEPT = 5;

const Limit = z.object({ soft: z.string(), hard: z.string() });

export const BusyProcess = z.object({ pid: z.number().int(), command: z.string(), cpuPercent: z.number() });
export type BusyProcess = z.infer<typeof BusyProcess>;

/** What the facts script reads, beyond the system info script. */
export const HostReadings = z.object({
  machineId: z.string().nullable(),
  bootId: z.string().nullable(),
  /** Distinct scaling governors of the CPUs; null when the kernel exposes no cpufreq. */
  governors: z.array(z.string()).nullable(),
  /** Turbo/boost; null when the kernel exposes no switch for it. */
  boost: z.object({ on: z.boolean(), source: z.string() }).nullable(),
  loadAverage: z.tuple([z.number(), z.number(), z.number()]).nullable(),
  /** Other processes' CPU over the sampled second, in % of one core, busiest first. */
  busy: z.array(BusyProcess),
  /** Pages swapped in and out over the sampled interval. */
  swap: z.object({ pagesIn: z.number(), pagesOut: z.number(), seconds: z.number() }).nullable(),
  /** The process listening on the target port and the limits it runs with (/proc/<pid>/limits). */
  listener: z.object({ pid: z.number().int(), command: z.string(), limits: z.object({ nofile: Limit, nproc: Limit }) }).nullable(),
});
export type HostReadings = z.infer<typeof HostReadings>;

/**
 * One key of a preset as it stood on the host after the apply: asked, in effect, and whether it
 * took (made from the apply's verdicts in app/presets/preset-effect.ts).
 */
export const PresetKeyEffect = z.object({
  preset: z.string(),
  kind: z.enum(['sysctl', 'limit', 'network']),
  key: z.string(),
  asked: z.string(),
  /** What the kernel reads back (a sysctl), a new login gets (a limit, "soft / hard") or tc reads back (a network setting); null when unread. */
  inEffect: z.string().nullable(),
  took: z.boolean(),
  /** Why it did not take, when that can be told. */
  reason: z.string().nullable(),
});
export type PresetKeyEffect = z.infer<typeof PresetKeyEffect>;

/** One host of a session as it was at the session's start. `limits` are a fresh login's: the agent's. */
export const HostFacts = SystemInfo.extend({
  role: z.enum(['client', 'server']),
  hostName: z.string(),
  /**
   * Presets in Benchlab's change journal for this host, by state, and the keys of the latest apply
   * as verified then: what was asked and what took effect (absent in snapshots from before).
   */
  preset: z.object({ applied: z.array(z.string()), pending: z.array(z.string()), effects: z.array(PresetKeyEffect).optional() }),
  readings: HostReadings.nullable(),
});
export type HostFacts = z.infer<typeof HostFacts>;

export const NOISE_KINDS = ['governor', 'turbo', 'load', 'busy-process', 'swap', 'same-machine', 'unavailable'] as const;

export const NoiseFinding = z.object({
  kind: z.enum(NOISE_KINDS),
  host: z.enum(['client', 'server', 'both']),
  /** The host it is about by name (with several clients, which client); absent for 'both' and in findings stored before. */
  hostName: z.string().optional(),
  message: z.string(),
  /** The reading behind the message, as read. */
  evidence: z.string(),
});
export type NoiseFinding = z.infer<typeof NoiseFinding>;

/** The hosts of a session (or of a pre-flight check) and what the pre-flight found. */
export const SessionHostFacts = z.object({
  /** The first client (clients[0]): what one-client readers read. */
  client: HostFacts.nullable(),
  /** Every client that could be read, in the session's client order. */
  clients: z.array(HostFacts),
  server: HostFacts.nullable(),
  findings: z.array(NoiseFinding),
});
export type SessionHostFacts = z.infer<typeof SessionHostFacts>;

// ---------------------------------------------------------------------------------------------
// Facts script output

function first(lines: string[] | undefined): string | null {
  return lines?.[0] ?? null;
}

interface ProcSample {
  uptimeS: number;
  pswpin: number | null;
  pswpout: number | null;
  /** pid → [command, utime + stime in clock ticks] */
  cpu: Map<number, [string, number]>;
}

/** One `/proc/<pid>/stat` line: the command sits in parentheses and may hold spaces and parentheses. */
function statLine(line: string): [number, string, number] | null {
  const open = line.indexOf('(');
  const close = line.lastIndexOf(')');
  if (open < 0 || close < open) return null;
  const pid = Number(line.slice(0, open).trim());
  const fields = line.slice(close + 1).trim().split(/\s+/);
  // After the command: state is field 3, utime 14 and stime 15 (man 5 proc).
  const ticks = Number(fields[11]) + Number(fields[12]);
  if (!Number.isInteger(pid) || !Number.isFinite(ticks)) return null;
  return [pid, line.slice(open + 1, close), ticks];
}

function sample(found: Map<string, string[]>, name: string): ProcSample | null {
  const uptime = Number(first(found.get(`${name} uptime`))?.split(/\s+/)[0]);
  if (!Number.isFinite(uptime)) return null;
  const vmstat = new Map((found.get(`${name} vmstat`) ?? []).map((line) => line.split(/\s+/) as [string, string]));
  const counter = (key: string) => (vmstat.has(key) ? Number(vmstat.get(key)) : null);
  const cpu = new Map<number, [string, number]>();
  for (const line of found.get(`${name} stat`) ?? []) {
    const parsed = statLine(line);
    if (parsed) cpu.set(parsed[0], [parsed[1], parsed[2]]);
  }
  return { uptimeS: uptime, pswpin: counter('pswpin'), pswpout: counter('pswpout'), cpu };
}

function limitRow(lines: string[], row: string): { soft: string; hard: string } {
  const line = lines.find((candidate) => candidate.startsWith(row));
  const [soft, hard] = line ? line.slice(row.length).trim().split(/\s+/) : [];
  return { soft: soft?.toLowerCase() ?? 'unknown', hard: hard?.toLowerCase() ?? 'unknown' };
}

function boostOf(found: Map<string, string[]>): HostReadings['boost'] {
  // intel_pstate says no_turbo (1 = off); acpi-cpufreq and amd-pstate say boost (1 = on).
  for (const line of found.get('boost') ?? []) {
    const [source, value] = line.split(/\s+/);
    if (value !== '0' && value !== '1') continue;
    if (source === 'intel_pstate/no_turbo') return { on: value === '0', source };
    if (source === 'cpufreq/boost') return { on: value === '1', source };
  }
  return null;
}

/**
 * Reads the facts script's output. `excludePids` are processes not to count as other load (the
 * script's own shell, the server under test). Throws when the script did not run to its end.
 */
export function parseFactsOutput(text: string, excludePids: readonly number[] = []): HostReadings {
  const found = splitSections(text, FACTS_MARKER, (line) => line.trim());
  if (!found.has('end')) throw new Error(found.size === 0 ? 'the output holds no host facts (the script did not run)' : 'the host facts output is incomplete');
  const self = Number(first(found.get('self')));
  const clockTicks = Number(first(found.get('clk-tck'))) || 100;
  const loads = first(found.get('loadavg'))?.split(/\s+/).slice(0, 3).map(Number);
  const governors = [...new Set(found.get('governor') ?? [])].sort();

  let listener: HostReadings['listener'] = null;
  const pid = Number(first(found.get('listener-pid')));
  const limits = found.get('listener-limits') ?? [];
  if (Number.isInteger(pid) && pid > 0 && limits.length > 0) {
    listener = {
      pid,
      command: first(found.get('listener-comm')) ?? 'unknown',
      limits: { nofile: limitRow(limits, 'Max open files'), nproc: limitRow(limits, 'Max processes') },
    };
  }

  const before = sample(found, 'sample-0');
  const after = sample(found, 'sample-1');
  let busy: BusyProcess[] = [];
  let swap: HostReadings['swap'] = null;
  if (before && after && after.uptimeS > before.uptimeS) {
    const seconds = after.uptimeS - before.uptimeS;
    const skip = new Set([self, ...excludePids, ...(listener ? [listener.pid] : [])]);
    busy = [...after.cpu]
      .filter(([id]) => !skip.has(id) && before.cpu.has(id))
      .map(([id, [command, ticks]]) => ({ pid: id, command, cpuPercent: Math.round(((ticks - before.cpu.get(id)![1]) / clockTicks / seconds) * 1000) / 10 }))
      .filter((process) => process.cpuPercent >= 1)
      .sort((a, b) => b.cpuPercent - a.cpuPercent)
      .slice(0, BUSY_PROCESSES_KEPT);
    if (before.pswpin !== null && after.pswpin !== null && before.pswpout !== null && after.pswpout !== null) {
      swap = { pagesIn: after.pswpin - before.pswpin, pagesOut: after.pswpout - before.pswpout, seconds: Math.round(seconds * 100) / 100 };
    }
  }

  return HostReadings.parse({
    machineId: first(found.get('machine-id')),
    bootId: first(found.get('boot-id')),
    governors: governors.length > 0 ? governors : null,
    boost: boostOf(found),
    loadAverage: loads && loads.length === 3 && loads.every(Number.isFinite) ? loads : null,
    busy,
    swap,
    listener,
  });
}

// ---------------------------------------------------------------------------------------------
// Findings

/** Load average (1 min) from which a host counts as busy: a quarter of its cores, at least 1. */
export function loadThreshold(cores: number): number {
  return Math.max(1, cores / 4);
}

function hostFindings(facts: HostFacts): NoiseFinding[] {
  const findings: NoiseFinding[] = [];
  const host = facts.role;
  const hostName = facts.hostName;
  const where = `${host} ${facts.hostName}`;
  const readings = facts.readings;
  if (!readings) return findings;
  const slow = readings.governors?.filter((governor) => governor !== 'performance') ?? [];
  if (slow.length > 0) {
    findings.push({
      kind: 'governor',
      host,
      hostName,
      message: `The ${where} scales its CPU frequency (governor ${slow.join(', ')}, not performance): the clock moves with the load.`,
      evidence: `scaling_governor: ${readings.governors!.join(', ')}`,
    });
  }
  if (readings.boost?.on) {
    findings.push({
      kind: 'turbo',
      host,
      hostName,
      message: `Turbo boost is on on the ${where}: the clock depends on temperature and how many cores are busy.`,
      evidence: `${readings.boost.source} = ${readings.boost.source.endsWith('no_turbo') ? '0' : '1'}`,
    });
  }
  if (readings.loadAverage && readings.loadAverage[0] >= loadThreshold(facts.cpuCores)) {
    findings.push({
      kind: 'load',
      host,
      hostName,
      message: `The ${where} is already loaded (load average ${readings.loadAverage[0]} on ${facts.cpuCores} cores) before the benchmark starts.`,
      evidence: `loadavg ${readings.loadAverage.join(' ')}`,
    });
  }
  const busy = readings.busy.filter((process) => process.cpuPercent >= BUSY_PROCESS_PERCENT);
  if (busy.length > 0) {
    findings.push({
      kind: 'busy-process',
      host,
      hostName,
      message: `Other processes use CPU on the ${where}: ${busy.map((process) => `${process.command} (${process.cpuPercent} %)`).join(', ')}.`,
      evidence: busy.map((process) => `pid ${process.pid} ${process.command} ${process.cpuPercent} % of a core`).join('; '),
    });
  }
  if (readings.swap && readings.swap.pagesIn + readings.swap.pagesOut > 0) {
    findings.push({
      kind: 'swap',
      host,
      hostName,
      message: `The ${where} is swapping: memory pressure will show up as latency.`,
      evidence: `pswpin +${readings.swap.pagesIn}, pswpout +${readings.swap.pagesOut} over ${readings.swap.seconds} s`,
    });
  }
  return findings;
}

/** Same kernel (boot id) or same installation (machine id): client and server share a machine. */
function sameMachine(client: HostFacts, server: HostFacts): NoiseFinding | null {
  const a = client.readings;
  const b = server.readings;
  if (!a || !b) return null;
  const sameBoot = a.bootId !== null && a.bootId === b.bootId;
  const sameId = a.machineId !== null && a.machineId === b.machineId;
  if (!sameBoot && !sameId) return null;
  const evidence = [sameBoot ? `boot id ${a.bootId}` : null, sameId ? `machine id ${a.machineId}` : null].filter(Boolean).join(', ');
  return {
    kind: 'same-machine',
    host: 'both',
    message: sameBoot
      ? `The client (${client.hostName}) and the server (${server.hostName}) run on the same machine: the load generator competes with the server for CPU, memory and the network stack.`
      : `The client (${client.hostName}) and the server (${server.hostName}) share /etc/machine-id: the same machine, or images cloned without a new machine id.`,
    evidence: `both report ${evidence}`,
  };
}

/**
 * Which clients (by their index in `facts.clients`) run on the server's kernel (the same boot id):
 * their load and the server's compete for one machine, so no verdict can name a side.
 */
export function clientsOnServerMachine(facts: Pick<SessionHostFacts, 'clients' | 'server'> | null | undefined): number[] {
  const bootId = facts?.server?.readings?.bootId ?? null;
  if (bootId === null) return [];
  return facts!.clients.flatMap((client, index) => (client.readings?.bootId === bootId ? [index] : []));
}

/** Clients that run on one kernel (same boot id) share its CPU: together they are not the capacity their count suggests. */
function clientsSharingMachines(clients: readonly HostFacts[]): NoiseFinding[] {
  const byBoot = new Map<string, HostFacts[]>();
  for (const client of clients) {
    const bootId = client.readings?.bootId;
    if (bootId) byBoot.set(bootId, [...(byBoot.get(bootId) ?? []), client]);
  }
  return [...byBoot].flatMap(([bootId, group]) =>
    group.length < 2
      ? []
      : [
          {
            kind: 'same-machine' as const,
            host: 'client' as const,
            message: `The clients ${group.map((client) => client.hostName).join(', ')} run on the same machine: their load generators compete for its CPU, so together they add no capacity.`,
            evidence: `all report boot id ${bootId}`,
          },
        ],
  );
}

/** A host whose facts could not be read: by role, and by name when known. */
export interface UnreadHost {
  role: 'client' | 'server';
  hostName?: string;
  message: string;
}

/** What makes results from these hosts unrepeatable, in the order the UI shows it: every client's and the server's. */
export function findNoise(clients: readonly HostFacts[], server: HostFacts | null, problems: readonly UnreadHost[] = []): NoiseFinding[] {
  const findings: NoiseFinding[] = problems.map((problem) => ({
    kind: 'unavailable',
    host: problem.role,
    ...(problem.hostName !== undefined ? { hostName: problem.hostName } : {}),
    message: `The ${problem.role}${problem.hostName !== undefined ? ` ${problem.hostName}` : ''}'s facts could not be read: nothing is known about its noise.`,
    evidence: problem.message,
  }));
  for (const client of clients) {
    const same = server ? sameMachine(client, server) : null;
    if (same) findings.push(same);
  }
  findings.push(...clientsSharingMachines(clients));
  for (const facts of [...clients, server]) if (facts) findings.push(...hostFindings(facts));
  return findings;
}
