// The client host's side of each second: CPU of the host and of the agent, sockets to the target
// (established and TIME_WAIT, from /proc/net/tcp{,6}) and the local port range, so a saturated
// client is visible next to the numbers it produced. The agent's own CPU and the busy share of the
// cores its busy threads ran on are what the bottleneck verdict reads: the host's CPU counts every
// other process on the machine. The load process is the agent itself (the Node engine's threads) or
// the native engine it started, whose CPU comes from the engine's own count.

import { availableParallelism } from 'node:os';
import type { ClientMetrics } from '../app/runs/agent-protocol.ts';
import { parsePerCoreTimes, parseTaskStat, perCoreBusy, TICKS_PER_SECOND } from '../app/runs/proc-counters.ts';
import { cpuShares, parseCpuTimes, parsePortRange, parseTcpTable, type CpuTimes } from '../app/runs/proc-stats.ts';
import { listProc, readProc } from './proc-files.ts';

/** A thread busy for at least this share of the interval counts as one the agent runs on. */
const BUSY_THREAD_SHARE = 0.1;

export interface LoadThreadFigures {
  lagMs: number;
  backlog: number;
  sent: number;
  portErrors: number;
  newConnections?: number;
  connectUsMax?: number | null;
  /** CPU seconds (user + system) the load process has used since it started; absent: this process's own. */
  cpuS?: number;
}

export class ClientMetricsSampler {
  readonly #targetPort: number;
  readonly #loadThreads: number;
  readonly #cores = availableParallelism();
  readonly #portRangeSize: number | null;
  #cpu: CpuTimes | null;
  #coreTimes: Map<number, CpuTimes>;
  #taskTicks: Map<string, number>;
  readonly #tasks: string;
  #agentCpu = process.cpuUsage();
  #loadCpuS = 0;
  #at = performance.now();

  /**
   * `loadThreads`: the threads carrying the load (0 when not known); `loadPid`: the process they run
   * in when it is not this one (the native engine).
   */
  constructor(targetPort: number, loadThreads = 0, loadPid?: number) {
    this.#targetPort = targetPort;
    this.#loadThreads = loadThreads;
    this.#tasks = `/proc/${loadPid ?? 'self'}/task`;
    const range = parsePortRange(readProc('/proc/sys/net/ipv4/ip_local_port_range') ?? '');
    this.#portRangeSize = range ? range[1] - range[0] + 1 : null;
    const stat = readProc('/proc/stat') ?? '';
    this.#cpu = parseCpuTimes(stat);
    this.#coreTimes = parsePerCoreTimes(stat);
    this.#taskTicks = readTaskTicks(this.#tasks).ticks;
  }

  sample(threads: LoadThreadFigures): ClientMetrics {
    const stat = readProc('/proc/stat') ?? '';
    const cpu = parseCpuTimes(stat);
    const busy = cpu && this.#cpu ? cpuShares(this.#cpu, cpu).busy : 0;
    this.#cpu = cpu;
    const at = performance.now();
    const elapsedUs = Math.max(1, (at - this.#at) * 1000);
    const usedUs = threads.cpuS === undefined ? this.#ownCpuUs() : Math.max(0, threads.cpuS - this.#loadCpuS) * 1e6;
    if (threads.cpuS !== undefined) this.#loadCpuS = threads.cpuS;
    this.#at = at;
    const coreTimes = parsePerCoreTimes(stat);
    const coreBusy = perCoreBusy(this.#coreTimes, coreTimes);
    this.#coreTimes = coreTimes;
    const tasks = readTaskTicks(this.#tasks);
    const agentCores = busyCores(this.#taskTicks, tasks, (elapsedUs / 1e6) * TICKS_PER_SECOND);
    this.#taskTicks = tasks.ticks;
    const agentBusy = [...agentCores].map((core) => coreBusy.get(core)).filter((share): share is number => share !== undefined);
    let openSockets = 0;
    let timeWait = 0;
    for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
      for (const socket of parseTcpTable(readProc(table) ?? '')) {
        if (socket.remotePort !== this.#targetPort) continue;
        if (socket.state === 'ESTABLISHED') openSockets++;
        else if (socket.state === 'TIME_WAIT') timeWait++;
      }
    }
    return {
      cpu: busy,
      agentCpu: usedUs / elapsedUs,
      cores: this.#cores,
      loadThreads: this.#loadThreads,
      agentCoresBusy: agentBusy.length === 0 ? null : agentBusy.reduce((sum, share) => sum + share, 0) / agentBusy.length,
      eventLoopLagMs: threads.lagMs,
      openSockets,
      timeWait,
      backlog: threads.backlog,
      sent: threads.sent,
      portErrors: threads.portErrors,
      newConnections: threads.newConnections ?? 0,
      connectUsMax: threads.connectUsMax ?? null,
      portRangeSize: this.#portRangeSize,
    };
  }

  #ownCpuUs(): number {
    const used = process.cpuUsage(this.#agentCpu);
    this.#agentCpu = process.cpuUsage();
    return used.user + used.system;
  }
}

interface TaskReading {
  ticks: Map<string, number>;
  processors: Map<string, number>;
}

/** CPU ticks and last core of each thread of the load process (`tasks`: its /proc/<pid>/task). */
function readTaskTicks(tasks: string): TaskReading {
  const reading: TaskReading = { ticks: new Map(), processors: new Map() };
  for (const tid of listProc(tasks) ?? []) {
    const task = parseTaskStat(readProc(`${tasks}/${tid}/stat`) ?? '');
    if (!task) continue;
    reading.ticks.set(tid, task.ticks);
    reading.processors.set(tid, task.processor);
  }
  return reading;
}

/** The cores the threads that were busy in the interval last ran on (idle helper threads say nothing). */
export function busyCores(before: ReadonlyMap<string, number>, after: TaskReading, intervalTicks: number): Set<number> {
  const cores = new Set<number>();
  for (const [tid, ticks] of after.ticks) {
    const earlier = before.get(tid);
    if (earlier === undefined || ticks - earlier < BUSY_THREAD_SHARE * intervalTicks) continue;
    const processor = after.processors.get(tid);
    if (processor !== undefined) cores.add(processor);
  }
  return cores;
}
