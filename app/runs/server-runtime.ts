// Why the server ran as it did, over a run: its per-second runtime readings (the busiest core, the
// host's run queue, the server threads' voluntary and involuntary context switches, the thread count,
// TCP retransmits and a full accept queue; a JVM's GC pauses, a Node server's event-loop delay) reduced
// to one line a comparison can set side by side — medians of the rates (one slow second does not make
// a run), the highest thread count (a pool that grew under load), the TCP trouble and the GC pauses
// added up, the worst pause and delay. Null when no second carried a reading.

import type { SecondServerMetrics } from './agent-protocol.ts';
import { medianOrNull } from '../common/median.ts';
import type { ServerRuntime } from './run-summary-schema.ts';

type Reading = Readonly<SecondServerMetrics>;

/** A reading's figure when it is a finite number; readings of older Benchlab lack the newer ones. */
function figure(reading: Reading, key: keyof SecondServerMetrics): number | null {
  const value = reading[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

export class ServerRuntimeTally {
  /** The readings by second: several clients' seconds of one index carry the same one, counted once. */
  readonly #bySecond = new Map<number, Reading>();

  add(second: number, serverMetrics: Reading | null): void {
    if (serverMetrics && !this.#bySecond.has(second)) this.#bySecond.set(second, serverMetrics);
  }

  result(): ServerRuntime | null {
    const readings = [...this.#bySecond.values()];
    if (readings.length === 0) return null;
    const values = (key: keyof SecondServerMetrics) => readings.map((reading) => figure(reading, key)).filter((value): value is number => value !== null);
    const medianOf = (key: keyof SecondServerMetrics) => medianOrNull(values(key));
    const sumOf = (key: keyof SecondServerMetrics) => {
      const read = values(key);
      return read.length === 0 ? null : read.reduce((sum, value) => sum + value, 0);
    };
    const maxOf = (key: keyof SecondServerMetrics) => {
      const read = values(key);
      return read.length === 0 ? null : Math.max(...read);
    };
    const threads = values('processThreads');
    const pauseMs = values('gcPauseMs');
    return {
      seconds: readings.length,
      threadsMax: threads.length === 0 ? null : Math.max(...threads),
      busiestCoreMedian: medianOf('busiestCoreCpu'),
      runQueueMedian: medianOf('runQueue'),
      voluntarySwitchesPerSMedian: medianOf('processVoluntarySwitchesPerS'),
      involuntarySwitchesPerSMedian: medianOf('processInvoluntarySwitchesPerS'),
      tcpRetransmits: sumOf('tcpRetransmits'),
      listenOverflows: sumOf('listenOverflows'),
      gcPauses: sumOf('gcPauses'),
      // Each reading covers about a second of the server's time.
      gcPauseShare: pauseMs.length === 0 ? null : pauseMs.reduce((sum, value) => sum + value, 0) / (pauseMs.length * 1000),
      gcLongestPauseMs: maxOf('gcLongestPauseMs'),
      heapAfterGcMaxBytes: maxOf('heapAfterGcBytes'),
      eventLoopDelayP99MsMedian: medianOf('eventLoopDelayP99Ms'),
      eventLoopDelayMaxMs: maxOf('eventLoopDelayMaxMs'),
    };
  }
}

/** The runtime line from a run's stored seconds (warm-up left out), for a summary stored before it was kept. */
export function serverRuntimeOf(seconds: Iterable<{ second: number; phase: string; serverMetrics: Reading | null }>): ServerRuntime | null {
  const tally = new ServerRuntimeTally();
  for (const second of seconds) if (second.phase !== 'warmup') tally.add(second.second, second.serverMetrics);
  return tally.result();
}

/** "12.5 ms", "0.8 ms", "140 ms": a delay or pause to a sensible precision. */
function milliseconds(ms: number): string {
  return `${ms >= 10 ? Math.round(ms).toLocaleString('en-US') : (Math.round(ms * 10) / 10).toString()} ms`;
}

/** "GC 12 pauses, 1.5 % of the time, longest 8 ms, heap after GC up to 40 MB". */
function gcWords(runtime: ServerRuntime): string {
  const pauses = runtime.gcPauses ?? 0;
  const share = runtime.gcPauseShare ?? 0;
  const heap = runtime.heapAfterGcMaxBytes;
  const parts = [
    `GC ${Math.round(pauses).toLocaleString('en-US')} ${pauses === 1 ? 'pause' : 'pauses'}`,
    `${share * 100 >= 10 ? Math.round(share * 100) : (Math.round(share * 1000) / 10).toString()} % of the time`,
    ...(pauses > 0 ? [`longest ${milliseconds(runtime.gcLongestPauseMs ?? 0)}`] : []),
    ...(heap !== null && heap !== undefined ? [`heap after GC up to ${Math.round(heap / 1e6).toLocaleString('en-US')} MB`] : []),
  ];
  return parts.join(', ');
}

/** "threads ≤ 24 · busiest core 97 % · run queue 2 · switches/s 1,500 waited, 40 preempted · retransmits 0 · accept queue full 0". */
export function describeServerRuntime(runtime: ServerRuntime): string {
  const count = (value: number) => Math.round(value).toLocaleString('en-US');
  const parts = [
    runtime.threadsMax === null ? null : `threads up to ${count(runtime.threadsMax)}`,
    runtime.busiestCoreMedian === null ? null : `busiest core ${Math.round(runtime.busiestCoreMedian * 100)} %`,
    runtime.runQueueMedian === null ? null : `run queue ${count(runtime.runQueueMedian)}`,
    runtime.voluntarySwitchesPerSMedian === null ? null : `context switches/s ${count(runtime.voluntarySwitchesPerSMedian)} waited, ${count(runtime.involuntarySwitchesPerSMedian ?? 0)} preempted`,
    runtime.tcpRetransmits === null ? null : `${count(runtime.tcpRetransmits)} TCP retransmits`,
    runtime.listenOverflows === null ? null : `accept queue full ${count(runtime.listenOverflows)} times`,
    runtime.gcPauses === null || runtime.gcPauses === undefined ? null : gcWords(runtime),
    runtime.eventLoopDelayP99MsMedian === null || runtime.eventLoopDelayP99MsMedian === undefined ? null : `event-loop delay p99 ${milliseconds(runtime.eventLoopDelayP99MsMedian)}, worst ${milliseconds(runtime.eventLoopDelayMaxMs ?? 0)}`,
  ].filter((part): part is string => part !== null);
  return `${parts.join(' · ')} (medians per second over ${runtime.seconds} s)`;
}
