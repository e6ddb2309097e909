import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BLOCKED_AFTER_MS, eventLoopFiguresOf, parseEventLoopLines, processDelay } from './event-loop-monitor.ts';

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
