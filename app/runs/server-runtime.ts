// Why the server ran as it did, over a run: its per-second runtime readings (the busiest core, the
// host's run queue, the server threads' voluntary and involuntary context switches, the thread count,
// TCP retransmits and a full accept queue; its GC pauses, from a JVM's GC log or a Node server's
// monitor; a Node server's event-loop delay) reduced to one line a comparison can set side by side —
// medians of the rates (one slow second does not make a run), the highest thread count (a pool that
// grew under load), the TCP trouble and the GC pauses added up, the worst pause and delay. Null
// when no second carried a reading. Also the one way GC is put in words (`gcWords`), which
// Compare's per-endpoint cells use too.

import type { SecondServerMetrics } from './agent-protocol.ts';
import { formatBytes } from '../common/byte-size.ts';
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
      monitorWakesPerSMedian: medianOf('monitorWakesPerS'),
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

/** A server's GC as words are made of it; a figure left out (undefined) is not said, a null one is said as unknown. */
export interface GcFigures {
  pauses?: number | null;
  /** Share of the time in pauses, 0..1. */
  share: number | null;
  longestMs?: number | null;
  heapAfterGcMaxBytes: number | null;
}

/**
 * A server's GC in words, the one way every screen says it, whichever runtime it came from: "GC 12
 * pauses, 1.5 % of the time, longest 8 ms, heap after GC up to 40 MB" (the runtime line), "GC 2.1 %
 * of the time, heap after GC up to 38 MB" (a Compare cell, which has no pauses), "GC —" when nothing
 * was read.
 */
export function gcWords(gc: GcFigures): string {
  const pauses = gc.pauses;
  if ((pauses === null || pauses === undefined) && gc.share === null && gc.heapAfterGcMaxBytes === null) return 'GC —';
  const share = gc.share;
  const parts = [
    pauses === null || pauses === undefined ? null : `${Math.round(pauses).toLocaleString('en-US')} ${pauses === 1 ? 'pause' : 'pauses'}`,
    share === null ? '— of the time' : `${share * 100 >= 10 ? Math.round(share * 100) : (Math.round(share * 1000) / 10).toString()} % of the time`,
    (pauses ?? 0) > 0 && gc.longestMs !== null && gc.longestMs !== undefined ? `longest ${milliseconds(gc.longestMs)}` : null,
    gc.heapAfterGcMaxBytes === null ? null : `heap after GC up to ${formatBytes(gc.heapAfterGcMaxBytes)}`,
  ].filter((part): part is string => part !== null);
  return `GC ${parts.join(', ')}`;
}

/** "context switches/s 1,500 waited (up to 100 of them the event-loop monitor's timer), 40 preempted". */
function switchWords(runtime: ServerRuntime, count: (value: number) => string): string {
  const monitor = runtime.monitorWakesPerSMedian;
  const monitorWords = monitor === null || monitor === undefined ? '' : ` (up to ${count(monitor)} of them the event-loop monitor's timer)`;
  return `context switches/s ${count(runtime.voluntarySwitchesPerSMedian ?? 0)} waited${monitorWords}, ${count(runtime.involuntarySwitchesPerSMedian ?? 0)} preempted`;
}

/** "threads ≤ 24 · busiest core 97 % · run queue 2 · switches/s 1,500 waited, 40 preempted · retransmits 0 · accept queue full 0". */
export function describeServerRuntime(runtime: ServerRuntime): string {
  const count = (value: number) => Math.round(value).toLocaleString('en-US');
  const parts = [
    runtime.threadsMax === null ? null : `threads up to ${count(runtime.threadsMax)}`,
    runtime.busiestCoreMedian === null ? null : `busiest core ${Math.round(runtime.busiestCoreMedian * 100)} %`,
    runtime.runQueueMedian === null ? null : `run queue ${count(runtime.runQueueMedian)}`,
    runtime.voluntarySwitchesPerSMedian === null ? null : switchWords(runtime, count),
    runtime.tcpRetransmits === null ? null : `${count(runtime.tcpRetransmits)} TCP retransmits`,
    runtime.listenOverflows === null ? null : `accept queue full ${count(runtime.listenOverflows)} times`,
    runtime.gcPauses === null || runtime.gcPauses === undefined
      ? null
      : gcWords({ pauses: runtime.gcPauses, share: runtime.gcPauseShare ?? 0, longestMs: runtime.gcLongestPauseMs ?? 0, heapAfterGcMaxBytes: runtime.heapAfterGcMaxBytes ?? null }),
    runtime.eventLoopDelayP99MsMedian === null || runtime.eventLoopDelayP99MsMedian === undefined ? null : `event-loop delay p99 ${milliseconds(runtime.eventLoopDelayP99MsMedian)}, worst ${milliseconds(runtime.eventLoopDelayMaxMs ?? 0)}`,
  ].filter((part): part is string => part !== null);
  return `${parts.join(' · ')} (medians per second over ${runtime.seconds} s)`;
}
