// Figure: what the server's runtime figures add to each stored second (goal: at most 1 KB). A stored
// second keeps the server's reading as JSON (samples-repository.ts, `server_metrics`); the runtime
// figures are each core's busy share (one string, two bytes a core: app/runs/core-busy.ts), the run
// queue, the host's and the server threads' context switches, the retransmits, the GC pauses and heap
// after GC (a JVM's or a Node server's), and a Node server's event-loop delay and its monitor's wakes.
// Measured on the reading as the store keeps it
// (storedServerMetrics), against the same reading without them, for hosts of 2, 8, 64 and 256 cores.
// Pure: the same every run.

import { storedServerMetrics } from '../app/runs/run-second.ts';
import type { ServerMetrics } from '../app/runs/agent-protocol.ts';

const BASE: ServerMetrics = {
  cpuUser: 0.4123, cpuSystem: 0.1877, cpuIowait: 0.0012, cpu: 0.6012, cores: 2, memTotalBytes: 16_679_260_160, memUsedBytes: 5_403_873_280,
  processRssBytes: 412_311_552, processFds: 231, processThreads: 48, processPid: 48_213, rxBytesPerS: 11_482_113, txBytesPerS: 48_113_902,
  tcp: { ESTABLISHED: 104, LISTEN: 3, TIME_WAIT: 12 }, busiestCoreCpu: 0.9713, processCpu: 1.2311, listenOverflows: 0, listenDrops: 0, readAt: 1_764_201_533_123,
};

/** The runtime figures of a reading on a host of `cores` cores, for a JVM or a Node server. */
function runtimeFigures(cores: number, runtime: 'jvm' | 'node'): Partial<ServerMetrics> {
  return {
    coreCpu: Array.from({ length: cores }, (_, core) => Math.round((0.35 + ((core * 37) % 60) / 100) * 1000) / 1000),
    runQueue: 7, hostContextSwitchesPerS: 48_211, processVoluntarySwitchesPerS: 12_843, processInvoluntarySwitchesPerS: 1_204, tcpRetransmits: 2,
    // Both runtimes' GC (a Node server's from V8, as its monitor observes it); a Node server's event-loop delay and its monitor's wakes besides.
    gcPauses: 3, gcPauseMs: 14.273, gcLongestPauseMs: 8.125, heapAfterGcBytes: 61_865_984,
    ...(runtime === 'node' ? { eventLoopDelayP50Ms: 0.213, eventLoopDelayP99Ms: 12.583, eventLoopDelayMaxMs: 41.287, monitorWakesPerS: 101 } : {}),
  };
}

/** The hosts measured: a laptop to a 256-core server. */
export const BENCH_CORES = [2, 8, 64, 256] as const;

const bytes = (reading: ServerMetrics) => Buffer.byteLength(JSON.stringify(storedServerMetrics(reading)));

/** The goal: the runtime figures add at most this to a stored second. */
export const GOAL_BYTES = 1024;

function addedBytes(cores: number, runtime: 'jvm' | 'node'): { addedBytes: number; readingBytes: number } {
  const full = bytes({ ...BASE, cores, ...runtimeFigures(cores, runtime) });
  return { addedBytes: full - bytes({ ...BASE, cores }), readingBytes: full };
}

export function benchRuntimeFiguresBytes(): Array<{ cores: number; runtime: 'jvm' | 'node'; addedBytes: number; readingBytes: number }> {
  return BENCH_CORES.flatMap((cores) => (['jvm', 'node'] as const).map((runtime) => ({ cores, runtime, ...addedBytes(cores, runtime) })));
}

/** The most cores a host may have for its figures to stay within the goal, for either runtime (the reading keeps up to 1024). */
export function mostCoresWithinGoal(): number {
  let cores = 0;
  while (cores < 1024 && (['jvm', 'node'] as const).every((runtime) => addedBytes(cores + 1, runtime).addedBytes <= GOAL_BYTES)) cores++;
  return cores;
}
