import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeServerRuntime, gcWords, serverRuntimeOf } from './server-runtime.ts';

const reading = (change: Record<string, number>) => ({ cpu: 0.5, processThreads: 10, busiestCoreCpu: 0.8, runQueue: 2, processVoluntarySwitchesPerS: 1000, processInvoluntarySwitchesPerS: 50, tcpRetransmits: 1, listenOverflows: 0, ...change });

test("a run's runtime line: medians of the rates, the highest thread count, the TCP trouble added up; the warm-up left out", () => {
  const runtime = serverRuntimeOf([
    { second: 0, phase: 'warmup', serverMetrics: reading({ processThreads: 500, tcpRetransmits: 100 }) },
    { second: 0, phase: 'measure', serverMetrics: reading({ processVoluntarySwitchesPerS: 900 }) },
    // Two clients' seconds of one index carry the same reading: counted once.
    { second: 0, phase: 'measure', serverMetrics: reading({ processVoluntarySwitchesPerS: 900 }) },
    { second: 1, phase: 'measure', serverMetrics: reading({ processThreads: 40, processVoluntarySwitchesPerS: 1100, tcpRetransmits: 3 }) },
    { second: 2, phase: 'measure', serverMetrics: reading({ processVoluntarySwitchesPerS: 5000, listenOverflows: 7 }) },
    { second: 3, phase: 'measure', serverMetrics: null },
  ]);
  assert.deepEqual(runtime, {
    seconds: 3,
    threadsMax: 40,
    busiestCoreMedian: 0.8,
    runQueueMedian: 2,
    voluntarySwitchesPerSMedian: 1100,
    involuntarySwitchesPerSMedian: 50,
    tcpRetransmits: 5,
    listenOverflows: 7,
    gcPauses: null,
    gcPauseShare: null,
    gcLongestPauseMs: null,
    heapAfterGcMaxBytes: null,
    eventLoopDelayP99MsMedian: null,
    eventLoopDelayMaxMs: null,
    monitorWakesPerSMedian: null,
  });
  assert.equal(describeServerRuntime(runtime!), 'threads up to 40 · busiest core 80 % · run queue 2 · context switches/s 1,100 waited, 50 preempted · 5 TCP retransmits · accept queue full 7 times (medians per second over 3 s)');
});

test('readings of older Benchlab: the figures they never had are left out, not shown as zero; no reading at all is null', () => {
  const runtime = serverRuntimeOf([{ second: 0, phase: 'measure', serverMetrics: { cpu: 0.3, processThreads: 8 } }]);
  assert.deepEqual(runtime, { seconds: 1, threadsMax: 8, busiestCoreMedian: null, runQueueMedian: null, voluntarySwitchesPerSMedian: null, involuntarySwitchesPerSMedian: null, tcpRetransmits: null, listenOverflows: null, gcPauses: null, gcPauseShare: null, gcLongestPauseMs: null, heapAfterGcMaxBytes: null, eventLoopDelayP99MsMedian: null, eventLoopDelayMaxMs: null, monitorWakesPerSMedian: null });
  assert.equal(describeServerRuntime(runtime!), 'threads up to 8 (medians per second over 1 s)');
  assert.equal(serverRuntimeOf([{ second: 0, phase: 'measure', serverMetrics: null }]), null);
});

test("a JVM's GC over the run: pauses added up, their share of the time, the longest, the highest heap after a GC; in words", () => {
  const gc = (pauses: number, pauseMs: number, longest: number, heap?: number) => ({ cpu: 0.5, gcPauses: pauses, gcPauseMs: pauseMs, gcLongestPauseMs: longest, ...(heap === undefined ? {} : { heapAfterGcBytes: heap }) });
  const runtime = serverRuntimeOf([
    { second: 0, phase: 'warmup', serverMetrics: gc(9, 900, 500, 900e6) },
    { second: 0, phase: 'measure', serverMetrics: gc(2, 30, 20, 40e6) },
    { second: 1, phase: 'measure', serverMetrics: gc(0, 0, 0) },
    { second: 2, phase: 'measure', serverMetrics: gc(1, 90, 90, 60e6) },
    { second: 3, phase: 'measure', serverMetrics: gc(0, 0, 0) },
  ])!;
  assert.deepEqual([runtime.gcPauses, runtime.gcPauseShare, runtime.gcLongestPauseMs, runtime.heapAfterGcMaxBytes], [3, 0.03, 90, 60e6]);
  assert.equal(describeServerRuntime(runtime), 'GC 3 pauses, 3 % of the time, longest 90 ms, heap after GC up to 60 MB (medians per second over 4 s)');
  const quiet = serverRuntimeOf([{ second: 0, phase: 'measure', serverMetrics: gc(0, 0, 0) }])!;
  assert.equal(describeServerRuntime(quiet), 'GC 0 pauses, 0 % of the time (medians per second over 1 s)', 'a GC log with no pause says so');
});

test("a Node server's event-loop delay over the run: the median second's p99 and the worst delay; in words", () => {
  const loop = (p99: number, max: number) => ({ cpu: 0.5, eventLoopDelayP50Ms: 0.2, eventLoopDelayP99Ms: p99, eventLoopDelayMaxMs: max });
  const runtime = serverRuntimeOf([
    { second: 0, phase: 'measure', serverMetrics: loop(1.2, 3) },
    { second: 1, phase: 'measure', serverMetrics: loop(2.5, 140) },
    { second: 2, phase: 'measure', serverMetrics: loop(40, 45) },
  ])!;
  assert.deepEqual([runtime.eventLoopDelayP99MsMedian, runtime.eventLoopDelayMaxMs, runtime.gcPauses], [2.5, 140, null]);
  assert.equal(describeServerRuntime(runtime), 'event-loop delay p99 2.5 ms, worst 140 ms (medians per second over 3 s)');
});

test("a Node server's GC reads as a JVM's, and its waits say how many of them may be the monitor's own timer", () => {
  const node = (pauses: number, pauseMs: number, longest: number, wakes: number, heap?: number) => ({
    cpu: 0.5,
    processVoluntarySwitchesPerS: 400,
    processInvoluntarySwitchesPerS: 3,
    gcPauses: pauses,
    gcPauseMs: pauseMs,
    gcLongestPauseMs: longest,
    ...(heap === undefined ? {} : { heapAfterGcBytes: heap }),
    eventLoopDelayP50Ms: 0.2,
    eventLoopDelayP99Ms: 2,
    eventLoopDelayMaxMs: 9,
    monitorWakesPerS: wakes,
  });
  const runtime = serverRuntimeOf([
    { second: 0, phase: 'measure', serverMetrics: node(30, 150, 12, 90, 48e6) },
    { second: 1, phase: 'measure', serverMetrics: node(25, 130, 9, 95, 52e6) },
    { second: 2, phase: 'measure', serverMetrics: node(0, 0, 0, 101) },
  ])!;
  assert.deepEqual([runtime.gcPauses, runtime.gcPauseShare, runtime.gcLongestPauseMs, runtime.heapAfterGcMaxBytes, runtime.monitorWakesPerSMedian], [55, 0.28 / 3, 12, 52e6, 95]);
  assert.equal(
    describeServerRuntime(runtime),
    "context switches/s 400 waited (up to 95 of them the event-loop monitor's timer), 3 preempted · GC 55 pauses, 9.3 % of the time, longest 12 ms, heap after GC up to 52 MB · event-loop delay p99 2 ms, worst 9 ms (medians per second over 3 s)",
  );
});

test('GC is said one way: the runtime line and a Compare cell give the same share and heap in the same words', () => {
  assert.equal(gcWords({ pauses: 2, share: 0.0214, longestMs: 8.25, heapAfterGcMaxBytes: 38.4e6 }), 'GC 2 pauses, 2.1 % of the time, longest 8.3 ms, heap after GC up to 38 MB');
  assert.equal(gcWords({ share: 0.0214, heapAfterGcMaxBytes: 38.4e6 }), 'GC 2.1 % of the time, heap after GC up to 38 MB');
  assert.equal(gcWords({ share: 0.123, heapAfterGcMaxBytes: null }), 'GC 12 % of the time');
  assert.equal(gcWords({ share: null, heapAfterGcMaxBytes: 4e6 }), 'GC — of the time, heap after GC up to 4.0 MB');
  assert.equal(gcWords({ share: null, heapAfterGcMaxBytes: null }), 'GC —');
});
