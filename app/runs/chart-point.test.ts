import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chartPoint } from './chart-point.ts';
import type { RunSecond } from './run-second.ts';

const second = (change: Partial<RunSecond>): RunSecond => ({
  second: 0,
  clientIndex: 0,
  phase: 'measure',
  scheduled: null,
  notSent: {},
  inFlight: null,
  requests: 0,
  bytes: 0,
  errors: {},
  statusClasses: {},
  p50Us: null,
  p90Us: null,
  p99Us: null,
  maxUs: null,
  histogram: null,
  clientMetrics: null,
  serverMetrics: null,
  ...change,
});

test('a second becomes the point the dashboard draws, placed at the time the agent measured it', () => {
  const point = chartPoint(
    second({
      second: 3,
      scheduled: 510,
      requests: 500,
      bytes: 21_500,
      errors: { timeout: 2, reset: 1 },
      p50Us: 100,
      p90Us: 200,
      p99Us: 900,
      clientMetrics: { cpu: 0.5, eventLoopLagMs: 4, durationMs: 500, at: 14_237 },
      serverMetrics: { cpu: 0.25, processRssBytes: 10, memUsedBytes: 20, rxBytesPerS: 30, txBytesPerS: 40 },
    }),
    { sessionId: 7, step: 1, stepOffsetS: 10, startedAtMs: 1000 },
  );
  assert.deepEqual(point, {
    sessionId: 7, step: 1, t: 13.24, at: 14_237, warmup: false, rps: 1000, errorsPerS: 6,
    // The second's own counts per second (SECOND_COUNTS), over its 500 ms.
    countsPerS: { scheduled: 1020, requests: 1000, bytes: 43_000 },
    p50Us: 100, p90Us: 200, p99Us: 900, maxUs: null,
    clientCpu: 0.5, eventLoopLagMs: 4, serverCpu: 0.25, serverRssBytes: 10, serverMemUsedBytes: 20, rxBytesPerS: 30, txBytesPerS: 40,
    server: { coreCpu: [], threads: null, runQueue: null, voluntarySwitchesPerS: null, involuntarySwitchesPerS: null, tcpRetransmitsPerS: null, listenOverflowsPerS: null, gcPauses: null, gcPauseMs: null, gcLongestPauseMs: null, heapAfterGcBytes: null, eventLoopDelayP50Ms: null, eventLoopDelayP99Ms: null, eventLoopDelayMaxMs: null, monitorWakesPerS: null },
  });
});

test('a second stored without its time is placed by its index in the step, at its end', () => {
  const bare = chartPoint(second({ second: 2, requests: 5 }), { sessionId: 1, step: 0, stepOffsetS: 4, startedAtMs: 5000 });
  assert.equal(bare.t, 7);
  assert.equal(bare.rps, 5);
  assert.equal(bare.at, 12_000);
  assert.equal(bare.serverCpu, null);
  assert.equal(bare.clientCpu, 0);
});

test('a warm-up second is drawn as warm-up; a zero-length second counts as a full one', () => {
  const warm = chartPoint(second({ phase: 'warmup', requests: 40, clientMetrics: { durationMs: 0, at: 2000 } }), { sessionId: 1, step: 0, stepOffsetS: 0, startedAtMs: 1000 });
  assert.equal(warm.warmup, true);
  assert.equal(warm.rps, 40);
  assert.equal(warm.t, 1);
});

test('a merged second carries each client’s own requests/s and p99; one part adds no breakdown', () => {
  const context = { sessionId: 1, step: 0, stepOffsetS: 0, startedAtMs: 0 };
  const parts = [
    second({ clientIndex: 0, requests: 300, p99Us: 800, clientMetrics: { durationMs: 1000, at: 1000 } }),
    second({ clientIndex: 1, requests: 100, p99Us: 2500, clientMetrics: { durationMs: 500, at: 1000 } }),
  ];
  const point = chartPoint(second({ clientIndex: -1, requests: 400, p99Us: 2400, clientMetrics: { durationMs: 1000, at: 1000 } }), context, parts);
  assert.equal(point.rps, 400);
  assert.deepEqual(point.clients, [
    { clientIndex: 0, rps: 300, p99Us: 800 },
    { clientIndex: 1, rps: 200, p99Us: 2500 },
  ]);
  assert.equal('clients' in chartPoint(parts[0]!, context, [parts[0]!]), false);
  assert.equal('clients' in chartPoint(parts[0]!, context), false);
});

test('the drain after a window is a point of its own, at its end, with the late answers’ latency', () => {
  const drain = chartPoint(
    second({ second: 10, phase: 'drain', requests: 3280, p50Us: 4_000_000, p90Us: 7_000_000, p99Us: 8_500_000, maxUs: 8_823_000, clientMetrics: { durationMs: 8000, at: 20_000 } }),
    { sessionId: 1, step: 0, stepOffsetS: 0, startedAtMs: 1000 },
  );
  assert.equal(drain.drain, true);
  assert.equal(drain.t, 19);
  assert.equal(drain.maxUs, 8_823_000);
  assert.equal(drain.p99Us, 8_500_000);
  assert.equal(drain.rps, 410, 'its answers over its own length');
  const quick = chartPoint(second({ second: 2, phase: 'drain', requests: 2, clientMetrics: { durationMs: 10, at: 4010 } }), { sessionId: 1, step: 0, stepOffsetS: 0, startedAtMs: 1000 });
  assert.equal(quick.rps, 2, 'a short drain’s rate is over a second, not a spike');
  const window = chartPoint(second({ second: 9, requests: 10, maxUs: 2_400_000 }), { sessionId: 1, step: 0, stepOffsetS: 0, startedAtMs: 1000 });
  assert.equal(window.drain, undefined);
  assert.equal(window.maxUs, 2_400_000);
});

test("the server's own story reaches the point: each core, threads, run queue, switches, and counts of the interval per second", async () => {
  const { storedServerMetrics } = await import('./run-second.ts');
  const stored = storedServerMetrics({
    cpuUser: 0.4, cpuSystem: 0.1, cpuIowait: 0, cpu: 0.5, cores: 2, memTotalBytes: 10, memUsedBytes: 5,
    processRssBytes: 1, processFds: 3, processThreads: 42, processPid: 9, rxBytesPerS: 0, txBytesPerS: 0, tcp: { ESTABLISHED: 4 },
    busiestCoreCpu: 0.9, processCpu: 0.7, listenOverflows: 6, listenDrops: 6,
    coreCpu: [0.9, 0.1], runQueue: 3, hostContextSwitchesPerS: 5000, processVoluntarySwitchesPerS: 1200, processInvoluntarySwitchesPerS: 80, tcpRetransmits: 4,
  });
  const point = chartPoint(second({ clientMetrics: { cpu: 0, eventLoopLagMs: 0, durationMs: 500 }, serverMetrics: stored }), { sessionId: 1, step: 0, stepOffsetS: 0, startedAtMs: 0 });
  assert.deepEqual(point.server, {
    coreCpu: [0.9, 0.1],
    threads: 42,
    runQueue: 3,
    voluntarySwitchesPerS: 1200,
    involuntarySwitchesPerS: 80,
    // 4 segments and 6 overflows in a half-second interval.
    tcpRetransmitsPerS: 8,
    listenOverflowsPerS: 12,
    gcPauses: null, gcPauseMs: null, gcLongestPauseMs: null, heapAfterGcBytes: null, eventLoopDelayP50Ms: null, eventLoopDelayP99Ms: null, eventLoopDelayMaxMs: null, monitorWakesPerS: null,
  });
  // A reading of older Benchlab: the figures it never had are unknown, not zero.
  const older = chartPoint(second({ serverMetrics: { cpu: 0.5, processThreads: 7 } }), { sessionId: 1, step: 0, stepOffsetS: 0, startedAtMs: 0 });
  assert.deepEqual(older.server, { coreCpu: [], threads: 7, runQueue: null, voluntarySwitchesPerS: null, involuntarySwitchesPerS: null, tcpRetransmitsPerS: null, listenOverflowsPerS: null, gcPauses: null, gcPauseMs: null, gcLongestPauseMs: null, heapAfterGcBytes: null, eventLoopDelayP50Ms: null, eventLoopDelayP99Ms: null, eventLoopDelayMaxMs: null, monitorWakesPerS: null });
  assert.equal(chartPoint(second({}), { sessionId: 1, step: 0, stepOffsetS: 0, startedAtMs: 0 }).server, undefined, 'a gap has no server figures');
});

test("a runtime's own figures reach the point as the server sampler read them: a JVM's GC pauses, a Node server's event-loop delay", () => {
  const context = { sessionId: 1, step: 0, stepOffsetS: 0, startedAtMs: 0 };
  const jvm = chartPoint(second({ clientMetrics: { durationMs: 500 }, serverMetrics: { cpu: 0.5, gcPauses: 3, gcPauseMs: 12.5, gcLongestPauseMs: 8, heapAfterGcBytes: 40e6 } }), context);
  assert.deepEqual([jvm.server?.gcPauses, jvm.server?.gcPauseMs, jvm.server?.gcLongestPauseMs, jvm.server?.heapAfterGcBytes, jvm.server?.eventLoopDelayP99Ms], [3, 12.5, 8, 40e6, null]);
  const node = chartPoint(second({ serverMetrics: { cpu: 0.5, eventLoopDelayP50Ms: 0.4, eventLoopDelayP99Ms: 12, eventLoopDelayMaxMs: 30 } }), context);
  assert.deepEqual([node.server?.eventLoopDelayP50Ms, node.server?.eventLoopDelayP99Ms, node.server?.eventLoopDelayMaxMs, node.server?.gcPauses], [0.4, 12, 30, null]);
  const nodeGc = chartPoint(second({ serverMetrics: { cpu: 0.5, eventLoopDelayP99Ms: 12, gcPauses: 40, gcPauseMs: 180, gcLongestPauseMs: 20, heapAfterGcBytes: 60e6, monitorWakesPerS: 94 } }), context);
  assert.deepEqual([nodeGc.server?.gcPauses, nodeGc.server?.gcPauseMs, nodeGc.server?.gcLongestPauseMs, nodeGc.server?.heapAfterGcBytes, nodeGc.server?.monitorWakesPerS], [40, 180, 20, 60e6, 94], "a Node server's GC and its monitor's timer runs");
});
