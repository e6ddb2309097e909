import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeServerRuntime, serverRuntimeOf } from './server-runtime.ts';

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
  });
  assert.equal(describeServerRuntime(runtime!), 'threads up to 40 · busiest core 80 % · run queue 2 · context switches/s 1,100 waited, 50 preempted · 5 TCP retransmits · accept queue full 7 times (medians per second over 3 s)');
});

test('readings of older Benchlab: the figures they never had are left out, not shown as zero; no reading at all is null', () => {
  const runtime = serverRuntimeOf([{ second: 0, phase: 'measure', serverMetrics: { cpu: 0.3, processThreads: 8 } }]);
  assert.deepEqual(runtime, { seconds: 1, threadsMax: 8, busiestCoreMedian: null, runQueueMedian: null, voluntarySwitchesPerSMedian: null, involuntarySwitchesPerSMedian: null, tcpRetransmits: null, listenOverflows: null });
  assert.equal(describeServerRuntime(runtime!), 'threads up to 8 (medians per second over 1 s)');
  assert.equal(serverRuntimeOf([{ second: 0, phase: 'measure', serverMetrics: null }]), null);
});
