// Pure readings of Linux /proc text, for the agent's samplers (the agent reads the files, this
// turns them into numbers): CPU time shares from /proc/stat, memory from /proc/meminfo, bytes per
// interface from /proc/net/dev, TCP sockets by state from /proc/net/tcp{,6}, a process's RSS and
// threads from /proc/<pid>/status and its parent from /proc/<pid>/stat.

export interface CpuTimes {
  user: number;
  system: number;
  iowait: number;
  idle: number;
  total: number;
}

/** The aggregate "cpu" line of /proc/stat, in clock ticks. */
export function parseCpuTimes(procStat: string): CpuTimes | null {
  const line = procStat.split('\n').find((row) => row.startsWith('cpu '));
  return line ? cpuTimesOfLine(line) : null;
}

/** One `cpu` or `cpuN` line of /proc/stat, in clock ticks. */
export function cpuTimesOfLine(line: string): CpuTimes {
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = line
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  // guest time is already inside user/nice, so it is not added again.
  return { user: user + nice, system: system + irq + softirq, iowait, idle, total: user + nice + system + idle + iowait + irq + softirq + steal };
}

export interface CpuShares {
  user: number;
  system: number;
  iowait: number;
  /** Everything but idle and iowait, 0..1 of all cores. */
  busy: number;
}

/** Shares of all cores' time between two readings. */
export function cpuShares(before: CpuTimes, after: CpuTimes): CpuShares {
  const total = after.total - before.total;
  if (total <= 0) return { user: 0, system: 0, iowait: 0, busy: 0 };
  const share = (value: number) => Math.max(0, Math.min(1, value / total));
  const idle = after.idle - before.idle + (after.iowait - before.iowait);
  return {
    user: share(after.user - before.user),
    system: share(after.system - before.system),
    iowait: share(after.iowait - before.iowait),
    busy: share(total - idle),
  };
}

export interface Memory {
  totalBytes: number;
  availableBytes: number;
}

export function parseMeminfo(text: string): Memory | null {
  const kb = (key: string) => {
    const match = new RegExp(`^${key}:\\s+(\\d+)\\s*kB`, 'm').exec(text);
    return match ? Number(match[1]) * 1024 : null;
  };
  const total = kb('MemTotal');
  if (total === null) return null;
  return { totalBytes: total, availableBytes: kb('MemAvailable') ?? kb('MemFree') ?? 0 };
}

export interface NetBytes {
  rxBytes: number;
  txBytes: number;
}

/** Bytes received and sent over every interface, loopback included (a loopback benchmark's traffic is there). */
export function parseNetDev(text: string): NetBytes {
  let rxBytes = 0;
  let txBytes = 0;
  for (const line of text.split('\n')) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const fields = line.slice(colon + 1).trim().split(/\s+/).map(Number);
    if (fields.length < 9) continue;
    rxBytes += fields[0] ?? 0;
    txBytes += fields[8] ?? 0;
  }
  return { rxBytes, txBytes };
}

export const TCP_STATES: Record<string, string> = {
  '01': 'ESTABLISHED',
  '02': 'SYN_SENT',
  '03': 'SYN_RECV',
  '04': 'FIN_WAIT1',
  '05': 'FIN_WAIT2',
  '06': 'TIME_WAIT',
  '07': 'CLOSE',
  '08': 'CLOSE_WAIT',
  '09': 'LAST_ACK',
  '0A': 'LISTEN',
  '0B': 'CLOSING',
};

export interface TcpSocket {
  localPort: number;
  remotePort: number;
  state: string;
  inode: number;
}

/** Rows of /proc/net/tcp or /proc/net/tcp6 (header lines are skipped). */
export function parseTcpTable(text: string): TcpSocket[] {
  const sockets: TcpSocket[] = [];
  for (const line of text.split('\n')) {
    const fields = line.trim().split(/\s+/);
    if (fields.length < 10 || !/^\d+:$/.test(fields[0] ?? '')) continue;
    const local = fields[1]!;
    const remote = fields[2]!;
    sockets.push({
      localPort: parseInt(local.slice(local.lastIndexOf(':') + 1), 16),
      remotePort: parseInt(remote.slice(remote.lastIndexOf(':') + 1), 16),
      state: TCP_STATES[fields[3]!.toUpperCase()] ?? fields[3]!,
      inode: Number(fields[9]),
    });
  }
  return sockets;
}

export function countTcpStates(sockets: Iterable<TcpSocket>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const socket of sockets) counts[socket.state] = (counts[socket.state] ?? 0) + 1;
  return counts;
}

/** The inodes of sockets listening on a port (to find the server process that owns them). */
export function listeningInodes(sockets: Iterable<TcpSocket>, port: number): Set<number> {
  const inodes = new Set<number>();
  for (const socket of sockets) if (socket.state === 'LISTEN' && socket.localPort === port && socket.inode > 0) inodes.add(socket.inode);
  return inodes;
}

export interface ProcessStatus {
  rssBytes: number;
  threads: number;
}

export function parseProcStatus(text: string): ProcessStatus | null {
  const rss = /^VmRSS:\s+(\d+)\s*kB/m.exec(text);
  const threads = /^Threads:\s+(\d+)/m.exec(text);
  if (!threads) return null;
  return { rssBytes: rss ? Number(rss[1]) * 1024 : 0, threads: Number(threads[1]) };
}

/** The parent pid from /proc/<pid>/stat (the command name may hold spaces and parentheses). */
export function parseParentPid(procPidStat: string): number | null {
  const end = procPidStat.lastIndexOf(')');
  if (end < 0) return null;
  const fields = procPidStat.slice(end + 2).split(' ');
  const ppid = Number(fields[1]);
  return Number.isInteger(ppid) ? ppid : null;
}

/** `lo hi` of /proc/sys/net/ipv4/ip_local_port_range. */
export function parsePortRange(text: string): [number, number] | null {
  const [lo, hi] = text.trim().split(/\s+/).map(Number);
  return lo !== undefined && hi !== undefined && Number.isInteger(lo) && Number.isInteger(hi) && hi >= lo ? [lo, hi] : null;
}
