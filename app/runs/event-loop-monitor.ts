// A Node server's event-loop delay, read without changing the server's code: a small module the
// server's `node` preloads (`--require`, which node:cluster's workers inherit) measures how late the
// loop runs a timer (perf_hooks' monitorEventLoopDelay, every 10 ms, the interval itself taken off)
// and appends one line a second to a file of its process, in a folder beside the module:
//   {"at":1700000000000,"p50":0.2,"p99":3.1,"max":12.4}
// The server sampler reads the new lines each second (agent/runtime-sampler.ts). A loop that is
// blocked writes nothing: a process whose last line is more than two seconds old is late by the time
// since (less the second its line was due in), at every percentile — the delay a timer due then meets.

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
    const { monitorEventLoopDelay } = require('node:perf_hooks');
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
    let size = 0;
    const timer = setInterval(() => {
      try {
        if (histogram.count === 0) return;
        const line = JSON.stringify({ at: Date.now(), p50: ms(histogram.percentile(50)), p99: ms(histogram.percentile(99)), max: ms(histogram.max) }) + '\\n';
        histogram.reset();
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

/** One line of a process's file. */
export interface EventLoopLine {
  at: number;
  p50: number;
  p99: number;
  max: number;
}

/** The whole lines of a stretch of a process's file, in order; anything else is passed over. */
export function parseEventLoopLines(text: string): EventLoopLine[] {
  const lines: EventLoopLine[] = [];
  for (const raw of text.split('\n')) {
    if (!raw.startsWith('{')) continue;
    try {
      const line = JSON.parse(raw) as Partial<EventLoopLine>;
      const figures = [line.at, line.p50, line.p99, line.max];
      if (figures.every((figure) => typeof figure === 'number' && Number.isFinite(figure))) lines.push(line as EventLoopLine);
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
