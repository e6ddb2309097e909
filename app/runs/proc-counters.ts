// Pure readings of the /proc counters the bottleneck verdict needs beyond app/runs/proc-stats.ts: the
// busy share of each core (a saturated core hides in the machine-wide average), a process's or a
// thread's CPU ticks and the core it last ran on (/proc/<pid>/stat, /proc/self/task/<tid>/stat),
// and the kernel's TCP counters (/proc/net/netstat, as nstat shows them: a full accept queue shows
// as TcpExt ListenOverflows/ListenDrops on the server host; /proc/net/snmp's Tcp RetransSegs, the
// segments sent again), the host's run queue and context switches (/proc/stat's procs_running and
// ctxt), and a task's own context switches (/proc/<pid>/task/<tid>/status).

import { cpuShares, cpuTimesOfLine, type CpuTimes } from './proc-stats.ts';

/** Linux reports /proc CPU times in USER_HZ ticks, 100 a second on every architecture it ships for. */
export const TICKS_PER_SECOND = 100;

/** The `cpuN` lines of /proc/stat by core number (the aggregate `cpu` line is not a core). */
export function parsePerCoreTimes(procStat: string): Map<number, CpuTimes> {
  const cores = new Map<number, CpuTimes>();
  for (const line of procStat.split('\n')) {
    const match = /^cpu(\d+)\s/.exec(line);
    if (match) cores.set(Number(match[1]), cpuTimesOfLine(line));
  }
  return cores;
}

/** Busy share (0..1) of each core between two readings; a core missing from either is left out. */
export function perCoreBusy(before: ReadonlyMap<number, CpuTimes>, after: ReadonlyMap<number, CpuTimes>): Map<number, number> {
  const busy = new Map<number, number>();
  for (const [core, times] of after) {
    const earlier = before.get(core);
    if (earlier) busy.set(core, cpuShares(earlier, times).busy);
  }
  return busy;
}

export interface TaskCpu {
  /** User + system time, in ticks (a process's line counts all its threads). */
  ticks: number;
  /** The core it last ran on. */
  processor: number;
}

/** utime, stime and processor of a /proc/<pid>/stat or /proc/<pid>/task/<tid>/stat line. */
export function parseTaskStat(text: string): TaskCpu | null {
  // The command name may hold spaces and parentheses: fields are counted after the last ')'.
  const end = text.lastIndexOf(')');
  if (end < 0) return null;
  const fields = text.slice(end + 2).trim().split(/\s+/);
  // fields[0] is field 3 (state): utime is field 14, stime 15, processor 39.
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  const processor = Number(fields[36]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime) || !Number.isInteger(processor)) return null;
  return { ticks: utime + stime, processor };
}

/** /proc/net/netstat (or /proc/net/snmp): header/value line pairs by section, e.g. `TcpExt.ListenOverflows`. */
export function parseNetstat(text: string): Map<string, number> {
  const counters = new Map<string, number>();
  const lines = text.split('\n');
  for (let i = 0; i + 1 < lines.length; i++) {
    const names = lines[i]!.trim().split(/\s+/);
    const values = lines[i + 1]!.trim().split(/\s+/);
    const section = names[0];
    if (!section?.endsWith(':') || values[0] !== section || names.length !== values.length || !/^-?\d/.test(values[1] ?? '')) continue;
    for (let k = 1; k < names.length; k++) counters.set(`${section.slice(0, -1)}.${names[k]}`, Number(values[k]));
    i++;
  }
  return counters;
}

export interface ListenCounters {
  /** Connections that found the accept queue full. */
  overflows: number;
  /** Connection requests dropped at the listener, overflows included. */
  drops: number;
}

export function listenCounters(netstat: string): ListenCounters {
  const counters = parseNetstat(netstat);
  return { overflows: counters.get('TcpExt.ListenOverflows') ?? 0, drops: counters.get('TcpExt.ListenDrops') ?? 0 };
}

/** /proc/net/snmp's count of TCP segments sent again (Tcp.RetransSegs), for the namespace read. */
export function tcpRetransmits(snmp: string): number {
  return parseNetstat(snmp).get('Tcp.RetransSegs') ?? 0;
}

export interface HostScheduling {
  /** Tasks runnable right now (procs_running), the reading process itself among them. */
  running: number;
  /** Context switches on every core since boot (ctxt). */
  contextSwitches: number;
}

/** procs_running and ctxt of /proc/stat; null when either is missing. */
export function parseHostScheduling(procStat: string): HostScheduling | null {
  const running = /^procs_running\s+(\d+)/m.exec(procStat);
  const switches = /^ctxt\s+(\d+)/m.exec(procStat);
  return running && switches ? { running: Number(running[1]), contextSwitches: Number(switches[1]) } : null;
}

export interface ContextSwitches {
  /** The task gave up its core: it waited (for I/O, a lock, a sleep). */
  voluntary: number;
  /** The scheduler took its core away: another task was runnable (more threads than cores, busy). */
  involuntary: number;
}

/** voluntary_ctxt_switches and nonvoluntary_ctxt_switches of a /proc/<pid>/task/<tid>/status. */
export function parseContextSwitches(status: string): ContextSwitches | null {
  const voluntary = /^voluntary_ctxt_switches:\s+(\d+)/m.exec(status);
  const involuntary = /^nonvoluntary_ctxt_switches:\s+(\d+)/m.exec(status);
  return voluntary && involuntary ? { voluntary: Number(voluntary[1]), involuntary: Number(involuntary[1]) } : null;
}
