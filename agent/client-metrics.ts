// The client host's side of each second: CPU of the host and of the agent, sockets to the target
// (established and TIME_WAIT, from /proc/net/tcp{,6}) and the local port range, so a saturated
// client is visible next to the numbers it produced.

import { availableParallelism } from 'node:os';
import type { ClientMetrics } from '../app/agent-protocol.ts';
import { cpuShares, parseCpuTimes, parsePortRange, parseTcpTable, type CpuTimes } from '../app/proc-stats.ts';
import { readProc } from './proc-files.ts';

export interface LoadThreadFigures {
  lagMs: number;
  backlog: number;
  sent: number;
  portErrors: number;
}

export class ClientMetricsSampler {
  readonly #targetPort: number;
  readonly #cores = availableParallelism();
  readonly #portRangeSize: number | null;
  #cpu: CpuTimes | null;
  #agentCpu = process.cpuUsage();
  #at = performance.now();

  constructor(targetPort: number) {
    this.#targetPort = targetPort;
    const range = parsePortRange(readProc('/proc/sys/net/ipv4/ip_local_port_range') ?? '');
    this.#portRangeSize = range ? range[1] - range[0] + 1 : null;
    this.#cpu = parseCpuTimes(readProc('/proc/stat') ?? '');
  }

  sample(threads: LoadThreadFigures): ClientMetrics {
    const cpu = parseCpuTimes(readProc('/proc/stat') ?? '');
    const busy = cpu && this.#cpu ? cpuShares(this.#cpu, cpu).busy : 0;
    this.#cpu = cpu;
    const at = performance.now();
    const used = process.cpuUsage(this.#agentCpu);
    this.#agentCpu = process.cpuUsage();
    const elapsedUs = Math.max(1, (at - this.#at) * 1000);
    this.#at = at;
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
      agentCpu: (used.user + used.system) / elapsedUs,
      cores: this.#cores,
      eventLoopLagMs: threads.lagMs,
      openSockets,
      timeWait,
      backlog: threads.backlog,
      sent: threads.sent,
      portErrors: threads.portErrors,
      portRangeSize: this.#portRangeSize,
    };
  }
}
