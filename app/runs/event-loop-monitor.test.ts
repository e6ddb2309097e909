import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BLOCKED_AFTER_MS, eventLoopFiguresOf, nodeGcFiguresOf, parseEventLoopLines, processDelay, processGcOf } from './event-loop-monitor.ts';

const line = (at: number, p50: number, p99: number, max: number) => ({ at, p50, p99, max });

test("a process's lines: whole JSON lines with every figure; a line cut by the file's restart is passed over", () => {
  const text = '{"at":1000,"p50":0.1,"p99":2,"max":3}\n{"at":2000,"p5\n{"at":3000,"p50":0.2,"p99":1,"max":1.5}\n{"at":4000}\n';
  assert.deepEqual(parseEventLoopLines(text), [line(1000, 0.1, 2, 3), line(3000, 0.2, 1, 1.5)]);
});

test("a process's delay for the sampler's second: the worst of its new lines, else its last line again, else a loop blocked since its last line", () => {
  const last = line(10_000, 0.1, 1, 2);
  assert.deepEqual(processDelay([line(11_000, 0.3, 5, 9), line(11_900, 0.2, 8, 40)], last, 12_000), line(11_900, 0.3, 8, 40));
  assert.deepEqual(processDelay([], last, 10_000 + BLOCKED_AFTER_MS), last, 'the seconds drifted: one line late is no block');
  // Nothing for 3.5 s: a timer due a second after the last line has waited 2.5 s so far.
  assert.deepEqual(processDelay([], last, 13_500), line(10_000, 2500, 2500, 2500));
  assert.equal(processDelay([], null, 13_500), null, 'a process that never wrote says nothing');
});

test("the server's delay is the worst process's at each percentile; none when none wrote", () => {
  assert.deepEqual(eventLoopFiguresOf([line(1, 0.1, 9, 10), null, line(1, 0.5, 2, 30)]), { eventLoopDelayP50Ms: 0.5, eventLoopDelayP99Ms: 9, eventLoopDelayMaxMs: 30 });
  assert.equal(eventLoopFiguresOf([null]), null);
  assert.equal(eventLoopFiguresOf([]), null);
});

test("a line's GC and the monitor's wakes are kept when the monitor wrote them; a line of an older monitor has the delay alone", () => {
  const text = '{"at":1,"p50":0.1,"p99":2,"max":3,"wakes":101,"gc":4,"gcMs":6.5,"gcMaxMs":3,"heap":9000000}\n{"at":2,"p50":0.1,"p99":2,"max":3}\n{"at":3,"p50":0.1,"p99":2,"max":3,"gc":-1,"heap":"x"}\n';
  assert.deepEqual(parseEventLoopLines(text), [{ ...line(1, 0.1, 2, 3), wakes: 101, gc: 4, gcMs: 6.5, gcMaxMs: 3, heap: 9_000_000 }, line(2, 0.1, 2, 3), line(3, 0.1, 2, 3)]);
});

test("a process's GC over the interval: its new lines added up, the heap after its latest pause kept from an earlier interval", () => {
  const gcLine = (gc: number, gcMs: number, gcMaxMs: number, heap?: number) => ({ ...line(1, 0, 0, 0), wakes: 100, gc, gcMs, gcMaxMs, ...(heap === undefined ? {} : { heap }) });
  assert.deepEqual(processGcOf([gcLine(3, 10, 6, 50e6), gcLine(1, 2, 2)], null), { pauses: 4, pauseMs: 12, longestMs: 6, heapBytes: 50e6, wakes: 200 });
  assert.deepEqual(processGcOf([], 50e6), { pauses: 0, pauseMs: 0, longestMs: 0, heapBytes: 50e6, wakes: 0 }, 'no new line: nothing paused, the heap it left before');
});

test("a cluster's GC: pauses added up, the most-paused process's time (a share of one second), the longest of any, the processes' heaps added up when a pause ended", () => {
  const primary = { pauses: 0, pauseMs: 0, longestMs: 0, heapBytes: 5e6, wakes: 101 };
  const worker = (pauses: number, pauseMs: number, longestMs: number, heapBytes: number | null) => ({ pauses, pauseMs, longestMs, heapBytes, wakes: 90 });
  assert.deepEqual(nodeGcFiguresOf([primary, worker(20, 150, 12, 40e6), worker(18, 170, 9, 42e6)]), { gcPauses: 38, gcPauseMs: 170, gcLongestPauseMs: 12, heapAfterGcBytes: 87e6, monitorWakesPerS: 281 });
  assert.deepEqual(nodeGcFiguresOf([primary, worker(0, 0, 0, 40e6)]), { gcPauses: 0, gcPauseMs: 0, gcLongestPauseMs: 0, monitorWakesPerS: 191 }, 'no pause ended: no heap after one, as a JVM');
  assert.equal(nodeGcFiguresOf([]), null);
});
