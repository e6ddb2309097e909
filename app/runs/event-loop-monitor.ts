// A Node server's event-loop delay and GC, read without changing the server's code: a small module
// the server's `node` preloads (`--require`, which node:cluster's workers inherit) measures how late
// the loop runs a timer (perf_hooks' monitorEventLoopDelay, every 10 ms, the interval itself taken
// off), observes V8's GC pauses (perf_hooks' 'gc' entries: one per pause, its duration) and appends
// one line a second to a file of its process, in a folder beside the module:
//   {"at":1700000000000,"p50":0.2,"p99":3.1,"max":12.4,"wakes":101,"gc":3,"gcMs":4.2,"gcMaxMs":2.1,"heap":9437184}
// `wakes`: how often the monitor's own timers ran in the second (the 10 ms one and the writer): each
// may have woken an idle loop, a voluntary context switch of the server's that is the monitor's.
// `heap`: V8's heap in use when the monitor was told of the second's last pause (just after it);
// absent when no pause ended. The server sampler reads the new lines each second
// (agent/runtime-sampler.ts). A loop that is blocked writes nothing: a process whose last line is
// more than two seconds old is late by the time since (less the second its line was due in), at every
// percentile — the delay a timer due then meets.

/** The module's file name, and the folder beside it that holds a file per process (`<pid>.jsonl`). */
export const EVENT_LOOP_MONITOR_FILE = 'benchlab-event-loop.cjs';
export const EVENT_LOOP_FOLDER = 'event-loop';

/** A process's file is started again past this size, so a server that runs for weeks keeps a small one. */
const MAX_FILE_BYTES = 256 * 1024;

/** The preloaded module's source: it never throws into the server, and its timer never keeps it alive. */
export const EVENT_LOOP_MONITOR_SOURCE = `'use strict';
// Benchlab's event-loop delay monitor: one line a second of how late this process's loop ran its timers.
(() => {
  try {
    const { monitorEventLoopDelay, PerformanceObserver } = require('node:perf_hooks');
    const { getHeapStatistics } = require('node:v8');
    const fs = require('node:fs');
    const path = require('node:path');
    const RESOLUTION_MS = 10;
    const folder = path.join(__dirname, ${JSON.stringify(EVENT_LOOP_FOLDER)});
    fs.mkdirSync(folder, { recursive: true });
    const file = path.join(folder, process.pid + '.jsonl');
    const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
    histogram.enable();
    // The histogram holds the time between timer runs: the delay is what exceeds the interval.
    const ms = (ns) => Math.round(Math.max(0, ns / 1e6 - RESOLUTION_MS) * 1000) / 1000;
    const round = (value) => Math.round(value * 1000) / 1000;
    // The second's GC pauses, as V8 reports them (the observer is told of them just after they end).
    let gc = { count: 0, ms: 0, maxMs: 0, heap: null };
    try {
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) {
          gc.count++;
          gc.ms += entry.duration;
          gc.maxMs = Math.max(gc.maxMs, entry.duration);
        }
        gc.heap = getHeapStatistics().used_heap_size;
      }).observe({ entryTypes: ['gc'] });
    } catch {}
    let size = 0;
    const timer = setInterval(() => {
      try {
        if (histogram.count === 0) return;
        const figures = { at: Date.now(), p50: ms(histogram.percentile(50)), p99: ms(histogram.percentile(99)), max: ms(histogram.max), wakes: histogram.count + 1, gc: gc.count, gcMs: round(gc.ms), gcMaxMs: round(gc.maxMs) };
        if (gc.heap !== null) figures.heap = gc.heap;
        const line = JSON.stringify(figures) + '\\n';
        histogram.reset();
        gc = { count: 0, ms: 0, maxMs: 0, heap: null };
        if (size > ${MAX_FILE_BYTES}) {
          fs.writeFileSync(file, line);
          size = line.length;
        } else {
          fs.appendFileSync(file, line);
          size += line.length;
        }
      } catch {}
    }, 1000);
    timer.unref();
    process.on('exit', () => {
      try {
        fs.unlinkSync(file);
      } catch {}
    });
  } catch {}
})();
`;

/** One line of a process's file; a monitor of older Benchlab wrote only the delay. */
export interface EventLoopLine {
  at: number;
  p50: number;
  p99: number;
  max: number;
  /** Times the monitor's own timers ran in the second. */
  wakes?: number;
  /** GC pauses that ended in the second: how many, their total and the longest (ms)… */
  gc?: number;
  gcMs?: number;
  gcMaxMs?: number;
  /** …and V8's heap in use just after the last (bytes). */
  heap?: number;
}

const isFigure = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0;
const OPTIONAL_FIGURES = ['wakes', 'gc', 'gcMs', 'gcMaxMs', 'heap'] as const;

/** The whole lines of a stretch of a process's file, in order; anything else is passed over. */
export function parseEventLoopLines(text: string): EventLoopLine[] {
  const lines: EventLoopLine[] = [];
  for (const raw of text.split('\n')) {
    if (!raw.startsWith('{')) continue;
    try {
      const read = JSON.parse(raw) as Record<string, unknown>;
      const { at, p50, p99, max } = read;
      if (!isFigure(at) || !isFigure(p50) || !isFigure(p99) || !isFigure(max)) continue;
      const line: EventLoopLine = { at, p50, p99, max };
      for (const key of OPTIONAL_FIGURES) {
        const value = read[key];
        if (isFigure(value)) line[key] = value;
      }
      lines.push(line);
    } catch {
      // A line cut by the file's restart.
    }
  }
  return lines;
}

/** A process's lines stop for longer than this before its loop counts as blocked. */
export const BLOCKED_AFTER_MS = 2000;

/**
 * What one process's loop says for the sampler's interval: the worst of its new lines; with none, a
 * loop blocked since its last line (late by the time since, less the second that line was due in), or
 * else its last line again (the two clocks' seconds drift past each other). Null when it never wrote.
 */
export function processDelay(fresh: readonly EventLoopLine[], last: EventLoopLine | null, nowMs: number): EventLoopLine | null {
  if (fresh.length > 0) {
    return { at: fresh.at(-1)!.at, p50: Math.max(...fresh.map((line) => line.p50)), p99: Math.max(...fresh.map((line) => line.p99)), max: Math.max(...fresh.map((line) => line.max)) };
  }
  if (!last) return null;
  if (nowMs - last.at > BLOCKED_AFTER_MS) {
    const late = Math.round(nowMs - last.at - 1000);
    return { at: last.at, p50: late, p99: late, max: late };
  }
  return last;
}

/** The server's figures from its processes' delays: the worst process's at each percentile; none when no process wrote. */
export function eventLoopFiguresOf(delays: ReadonlyArray<EventLoopLine | null>): { eventLoopDelayP50Ms: number; eventLoopDelayP99Ms: number; eventLoopDelayMaxMs: number } | null {
  const read = delays.filter((delay): delay is EventLoopLine => delay !== null);
  if (read.length === 0) return null;
  return {
    eventLoopDelayP50Ms: Math.max(...read.map((delay) => delay.p50)),
    eventLoopDelayP99Ms: Math.max(...read.map((delay) => delay.p99)),
    eventLoopDelayMaxMs: Math.max(...read.map((delay) => delay.max)),
  };
}

/** One process's GC over the sampler's interval: its new lines added up, and its latest heap after a pause. */
export interface ProcessGc {
  pauses: number;
  pauseMs: number;
  longestMs: number;
  /** The heap in use after this process's latest pause, from this interval or an earlier one; null before any. */
  heapBytes: number | null;
  /** Times the monitor's timers ran in the interval. */
  wakes: number;
}

/** A process's GC from its new lines; `heapBefore` is the heap it left after its last pause read earlier. */
export function processGcOf(fresh: readonly EventLoopLine[], heapBefore: number | null): ProcessGc {
  const sum = (read: (line: EventLoopLine) => number | undefined) => fresh.reduce((total, line) => total + (read(line) ?? 0), 0);
  return {
    pauses: sum((line) => line.gc),
    pauseMs: sum((line) => line.gcMs),
    longestMs: Math.max(0, ...fresh.map((line) => line.gcMaxMs ?? 0)),
    heapBytes: fresh.findLast((line) => line.heap !== undefined)?.heap ?? heapBefore,
    wakes: sum((line) => line.wakes),
  };
}

/**
 * The server's GC from its processes' (the same figures a JVM's GC log gives): the pauses of every
 * process added up; the time paused, the most-paused process's (as the delay is the worst
 * process's), so it stays a share of one second and a cluster's primary, which only forks its
 * workers, does not dilute them; the longest of any; the heap after GC, each process's latest added
 * up (the server's heap in use), given only in an interval in which a pause ended, as a JVM's. And
 * the monitor's timer runs added up: up to that many of the server's voluntary switches are its own.
 */
export function nodeGcFiguresOf(processes: readonly ProcessGc[]): { gcPauses: number; gcPauseMs: number; gcLongestPauseMs: number; heapAfterGcBytes?: number; monitorWakesPerS: number } | null {
  if (processes.length === 0) return null;
  const round = (ms: number) => Math.round(ms * 1000) / 1000;
  const pauses = processes.reduce((total, process) => total + process.pauses, 0);
  const heaps = processes.map((process) => process.heapBytes).filter((heap): heap is number => heap !== null);
  return {
    gcPauses: pauses,
    gcPauseMs: round(Math.max(...processes.map((process) => process.pauseMs))),
    gcLongestPauseMs: round(Math.max(...processes.map((process) => process.longestMs))),
    ...(pauses > 0 && heaps.length > 0 ? { heapAfterGcBytes: heaps.reduce((total, heap) => total + heap, 0) } : {}),
    monitorWakesPerS: processes.reduce((total, process) => total + process.wakes, 0),
  };
}
