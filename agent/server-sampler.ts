// The server host's side of each second: CPU (user/system/iowait), memory (total, used, and the
// RSS of the server under test with its child processes), network bytes per second, the server's
// open fds and threads, and TCP sockets by state. The server under test is found as the process
// listening on the template's port. For the bottleneck verdict: the busiest core's busy share (a
// single-threaded server saturates one core of many), the server process tree's CPU in cores, and
// the accept-queue overflows of the interval (TcpExt ListenOverflows/ListenDrops, per network
// namespace, as nstat shows them). Why one server beats another: each core's busy share, the run
// queue and the host's context switches, the server threads' own voluntary and involuntary switches,
// and TCP retransmits; the runtime's own figures where it writes them (a JVM's or a Node server's GC
// pauses, a Node server's event-loop delay: runtime-sampler.ts). Each reading says when it was taken (`readAt`), so
// Benchlab stores it with the client second it belongs to and never with another.

import { availableParallelism } from 'node:os';
import { readlinkSync } from 'node:fs';
import type { ServerMetrics } from '../app/runs/agent-protocol.ts';
import {
  countTcpStates,
  cpuShares,
  listeningInodes,
  parseCpuTimes,
  parseMeminfo,
  parseNetDev,
  parseParentPid,
  parseProcStatus,
  parseTcpTable,
  type CpuTimes,
  type NetBytes,
} from '../app/runs/proc-stats.ts';
import {
  listenCounters,
  parseContextSwitches,
  parseHostScheduling,
  parsePerCoreTimes,
  parseTaskStat,
  perCoreBusy,
  tcpRetransmits,
  TICKS_PER_SECOND,
  type ContextSwitches,
  type ListenCounters,
} from '../app/runs/proc-counters.ts';
import { listProc, readProc } from './proc-files.ts';
import { hostNowMs } from './host-clock.ts';
import { RuntimeSampler } from './runtime-sampler.ts';

/** While the server process is not found, look again at most this often (a /proc/*\/fd scan is not free). */
const REFIND_EVERY_MS = 5000;
/**
 * The server's threads' context switches are read per thread (a process's own status counts its main
 * thread only), about 70 µs each: past this many threads the reading would cost the server's host
 * more than a few ms a second, so it is not taken (a Tomcat of 4,000 threads would lose a quarter core).
 */
export const PROCESS_SWITCH_THREADS = 256;

function isPid(name: string): boolean {
  return /^\d+$/.test(name);
}

/** The pid owning a socket with one of these inodes, by scanning /proc/<pid>/fd links. */
function pidOwning(inodes: Set<number>): number | null {
  if (inodes.size === 0) return null;
  for (const pid of listProc('/proc') ?? []) {
    if (!isPid(pid)) continue;
    for (const fd of listProc(`/proc/${pid}/fd`) ?? []) {
      let link: string;
      try {
        link = readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        continue;
      }
      const match = /^socket:\[(\d+)\]$/.exec(link);
      if (match && inodes.has(Number(match[1]))) return Number(pid);
    }
  }
  return null;
}

/** The process and all its descendants (Apache's workers, a Node cluster's children). */
function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of listProc('/proc') ?? []) {
    if (!isPid(name)) continue;
    const ppid = parseParentPid(readProc(`/proc/${name}/stat`) ?? '');
    if (ppid === null) continue;
    const list = children.get(ppid) ?? [];
    list.push(Number(name));
    children.set(ppid, list);
  }
  const tree: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    tree.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return tree;
}

export class ServerSampler {
  readonly #port: number | null;
  readonly #cores = availableParallelism();
  #cpu: CpuTimes | null;
  #coreTimes: Map<number, CpuTimes>;
  #net: NetBytes;
  #listen: ListenCounters;
  #retransmits: number;
  #hostSwitches: number | null;
  /** Context switches of each thread of the server tree at the last sample (by tid). */
  #threadSwitches = new Map<number, ContextSwitches>();
  /** CPU ticks of each process of the server tree at the last sample. */
  #processTicks = new Map<number, number>();
  #at = performance.now();
  #pid: number | null = null;
  #lastSearchAt = Number.NEGATIVE_INFINITY;
  readonly #runtime = new RuntimeSampler();

  constructor(port: number | null) {
    this.#port = port;
    const stat = readProc('/proc/stat') ?? '';
    this.#cpu = parseCpuTimes(stat);
    this.#coreTimes = parsePerCoreTimes(stat);
    this.#net = parseNetDev(readProc('/proc/net/dev') ?? '');
    this.#listen = listenCounters(readProc('/proc/net/netstat') ?? '');
    this.#retransmits = tcpRetransmits(readProc('/proc/net/snmp') ?? '');
    this.#hostSwitches = parseHostScheduling(stat)?.contextSwitches ?? null;
  }

  sample(): ServerMetrics {
    const readAt = hostNowMs();
    const at = performance.now();
    const seconds = Math.max(0.001, (at - this.#at) / 1000);
    this.#at = at;
    const stat = readProc('/proc/stat') ?? '';
    const cpu = parseCpuTimes(stat);
    const shares = cpu && this.#cpu ? cpuShares(this.#cpu, cpu) : { user: 0, system: 0, iowait: 0, busy: 0 };
    this.#cpu = cpu;
    const coreTimes = parsePerCoreTimes(stat);
    // Rounded once, here: the busiest core's share is then exactly one of the cores' shares shown.
    const coreBusy = [...perCoreBusy(this.#coreTimes, coreTimes).entries()].sort(([a], [b]) => a - b).map(([, busy]) => Math.round(busy * 1000) / 1000);
    this.#coreTimes = coreTimes;
    const scheduling = parseHostScheduling(stat);
    const hostSwitches = scheduling && this.#hostSwitches !== null ? Math.max(0, scheduling.contextSwitches - this.#hostSwitches) / seconds : null;
    this.#hostSwitches = scheduling?.contextSwitches ?? null;
    const retransmitted = tcpRetransmits(readProc('/proc/net/snmp') ?? '');
    // A counter that went backwards (the namespace was recreated) counts as none.
    const retransmits = Math.max(0, retransmitted - this.#retransmits);
    this.#retransmits = retransmitted;
    const listen = listenCounters(readProc('/proc/net/netstat') ?? '');
    // A counter that went backwards (the namespace was recreated) counts as no overflow.
    const overflows = Math.max(0, listen.overflows - this.#listen.overflows);
    const drops = Math.max(0, listen.drops - this.#listen.drops);
    this.#listen = listen;
    const net = parseNetDev(readProc('/proc/net/dev') ?? '');
    const rx = Math.max(0, net.rxBytes - this.#net.rxBytes) / seconds;
    const tx = Math.max(0, net.txBytes - this.#net.txBytes) / seconds;
    this.#net = net;
    const memory = parseMeminfo(readProc('/proc/meminfo') ?? '');
    const sockets = [...parseTcpTable(readProc('/proc/net/tcp') ?? ''), ...parseTcpTable(readProc('/proc/net/tcp6') ?? '')];
    const process = this.#process(sockets, seconds);
    const runtime = this.#runtime.sample(process ? this.#pid : null, process?.tree ?? [], Date.now());
    return {
      cpuUser: shares.user,
      cpuSystem: shares.system,
      cpuIowait: shares.iowait,
      cpu: shares.busy,
      cores: this.#cores,
      memTotalBytes: memory?.totalBytes ?? 0,
      memUsedBytes: memory ? memory.totalBytes - memory.availableBytes : 0,
      processRssBytes: process?.rss ?? null,
      processFds: process?.fds ?? null,
      processThreads: process?.threads ?? null,
      processPid: process ? this.#pid : null,
      rxBytesPerS: Math.round(rx),
      txBytesPerS: Math.round(tx),
      tcp: countTcpStates(sockets),
      busiestCoreCpu: coreBusy.length === 0 ? null : Math.max(...coreBusy),
      processCpu: process ? process.ticks / TICKS_PER_SECOND / seconds : null,
      listenOverflows: overflows,
      listenDrops: drops,
      coreCpu: coreBusy,
      ...(scheduling ? { runQueue: scheduling.running } : {}),
      ...(hostSwitches !== null ? { hostContextSwitchesPerS: Math.round(hostSwitches) } : {}),
      processVoluntarySwitchesPerS: process?.switches?.voluntary ?? null,
      processInvoluntarySwitchesPerS: process?.switches?.involuntary ?? null,
      tcpRetransmits: retransmits,
      ...runtime,
      readAt: Math.round(readAt),
    };
  }

  #process(sockets: ReturnType<typeof parseTcpTable>, seconds: number): { rss: number; threads: number; fds: number | null; ticks: number; switches: ContextSwitches | null; tree: number[] } | null {
    if (this.#port === null) return null;
    if (this.#pid !== null && readProc(`/proc/${this.#pid}/stat`) === null) this.#pid = null;
    if (this.#pid === null) {
      const now = performance.now();
      if (now - this.#lastSearchAt < REFIND_EVERY_MS) return null;
      this.#lastSearchAt = now;
      this.#pid = pidOwning(listeningInodes(sockets, this.#port));
      if (this.#pid === null) return null;
    }
    let rss = 0;
    let threads = 0;
    let fds: number | null = 0;
    // CPU since the last sample, of the processes seen both times (a new child counts from its second sample).
    let ticks = 0;
    const processTicks = new Map<number, number>();
    const tree = processTree(this.#pid);
    for (const pid of tree) {
      const status = parseProcStatus(readProc(`/proc/${pid}/status`) ?? '');
      if (!status) continue;
      rss += status.rssBytes;
      threads += status.threads;
      const task = parseTaskStat(readProc(`/proc/${pid}/stat`) ?? '');
      if (task) {
        processTicks.set(pid, task.ticks);
        const earlier = this.#processTicks.get(pid);
        if (earlier !== undefined) ticks += Math.max(0, task.ticks - earlier);
      }
      const open = listProc(`/proc/${pid}/fd`);
      // Another user's fds are not readable without root: say unknown rather than a wrong count.
      fds = open === null || fds === null ? null : fds + open.length;
    }
    this.#processTicks = processTicks;
    return { rss, threads, fds, ticks, switches: threads <= PROCESS_SWITCH_THREADS ? this.#switchesPerS(tree, seconds) : this.#forgetSwitches(), tree };
  }

  /** The tree's threads' context switches per second since the last sample (a thread seen both times counts). */
  #switchesPerS(tree: readonly number[], seconds: number): ContextSwitches | null {
    const now = new Map<number, ContextSwitches>();
    let voluntary = 0;
    let involuntary = 0;
    let compared = 0;
    for (const pid of tree) {
      for (const tid of listProc(`/proc/${pid}/task`) ?? []) {
        const switches = parseContextSwitches(readProc(`/proc/${pid}/task/${tid}/status`) ?? '');
        if (!switches) continue;
        now.set(Number(tid), switches);
        const earlier = this.#threadSwitches.get(Number(tid));
        if (!earlier) continue;
        compared++;
        voluntary += Math.max(0, switches.voluntary - earlier.voluntary);
        involuntary += Math.max(0, switches.involuntary - earlier.involuntary);
      }
    }
    // The first reading has nothing to compare with: no figure rather than a zero.
    const first = this.#threadSwitches.size === 0;
    this.#threadSwitches = now;
    if (first || compared === 0) return null;
    return { voluntary: Math.round(voluntary / seconds), involuntary: Math.round(involuntary / seconds) };
  }

  #forgetSwitches(): null {
    this.#threadSwitches = new Map();
    return null;
  }
}
