// Tests of what the verdict says about why the server limited a run, from its own per-second runtime
// figures and its CPU profile: each explanation appears with its evidence when its condition holds,
// and not on the near side of its limit; the decisive ones (pool, loop, GC) name the server alone,
// the others only explain a verdict the rest of the evidence reached.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { judgeBottleneck, type BottleneckProfile, type BottleneckSecond } from './bottleneck.ts';

/** A one-thread agent with headroom; a 2-core server host, mostly idle. */
const CLIENT = { cpu: 0.2, agentCpu: 0.2, cores: 2, loadThreads: 1, agentCoresBusy: 0.3, eventLoopLagMs: 3, openSockets: 50, timeWait: 0, portErrors: 0, portRangeSize: 28232, durationMs: 1000 };
const SERVER = { cpu: 0.1, busiestCoreCpu: 0.2, processCpu: 0.2, cores: 2, listenOverflows: 0, listenDrops: 0 };

interface Options {
  requests?: number;
  p50Us?: number;
  timeouts?: number;
  client?: Record<string, number>;
  server?: Record<string, number>;
}

function second(options: Options = {}): BottleneckSecond {
  return {
    requests: options.requests ?? 1000,
    p50Us: options.p50Us ?? 2000,
    notSent: { 'pool-full': 0 },
    errors: { timeout: options.timeouts ?? 0 },
    clientMetrics: { ...CLIENT, ...options.client },
    serverMetrics: { ...SERVER, ...options.server },
  };
}

const run = (count: number, make: (i: number) => BottleneckSecond) => Array.from({ length: count }, (_, i) => make(i));
const kinds = (verdict: ReturnType<typeof judgeBottleneck>) => verdict?.evidence.map((evidence) => evidence.kind) ?? [];
const messageOf = (verdict: ReturnType<typeof judgeBottleneck>, kind: string) => verdict?.evidence.find((evidence) => evidence.kind === kind)?.message ?? '';

/** A JVM server whose GC pauses take `pauseMs` of each second. */
const gcRun = (pauseMs: number, requests = 300) => run(10, (i) => second({ requests, server: { gcPauses: 5, gcPauseMs: pauseMs, gcLongestPauseMs: 40 + i, heapAfterGcBytes: (200 + i * 10) * 1e6 } }));

describe('the verdict explains the server from its own readings', () => {
  test('GC above a tenth of the time is named, with its pauses and heap, and names the server even without a target', () => {
    const verdict = judgeBottleneck(gcRun(150), 1000);
    assert.equal(verdict?.verdict, 'server-bound');
    assert.deepEqual(kinds(verdict), ['below-target', 'gc', 'client-headroom']);
    assert.match(verdict!.headline, /^The server is the bottleneck \(GC took 15 % of its time\): the client had headroom$/);
    assert.match(messageOf(verdict, 'gc'), /GC paused the server 15 % of the time: 50 pauses in 10 s, the longest 49 ms; heap after GC up to 290 MB/);
    // The closed model has no target: GC alone is the server's own word that it struggled.
    assert.equal(judgeBottleneck(gcRun(150, 1000), null)?.verdict, 'server-bound');
    // Below a tenth: not named, and nothing to say without a target.
    assert.deepEqual(kinds(judgeBottleneck(gcRun(80), 1000)), ['below-target', 'client-headroom']);
    assert.equal(judgeBottleneck(gcRun(80, 1000), null), null);
  });

  test("a Node server's GC, from its monitor, is named as a JVM's: the cluster's pauses, its most-paused process's time, a small heap as the runtime line prints it", () => {
    const node = run(10, () => second({ requests: 300, server: { gcPauses: 60, gcPauseMs: 320, gcLongestPauseMs: 25, heapAfterGcBytes: 9.5e6, eventLoopDelayP99Ms: 30, monitorWakesPerS: 40 } }));
    const verdict = judgeBottleneck(node, null);
    assert.equal(verdict?.verdict, 'server-bound');
    assert.match(verdict!.headline, /\(GC took 32 % of its time\)/);
    assert.equal(messageOf(verdict, 'gc'), 'GC paused the server 32 % of the time: 600 pauses in 10 s, the longest 25 ms; heap after GC up to 9.5 MB');
  });

  test("a Node server's blocked event loop is named; a loop within its limit, or late in one second only, is not", () => {
    const blocked = run(5, (i) => second({ requests: 300, server: { eventLoopDelayP50Ms: 11, eventLoopDelayP99Ms: i < 3 ? 180 + i * 10 : 20, eventLoopDelayMaxMs: 400 } }));
    const verdict = judgeBottleneck(blocked, 1000);
    assert.deepEqual(kinds(verdict), ['below-target', 'server-loop-blocked', 'client-headroom']);
    assert.match(verdict!.headline, /\(its event loop was blocked\)/);
    assert.match(messageOf(verdict, 'server-loop-blocked'), /delay p99 over 50 ms in 3 s \(up to 200 ms, a timer up to 400 ms late\)/);
    assert.equal(judgeBottleneck(blocked.map((s) => ({ ...s, requests: 1000 })), null)?.verdict, 'server-bound');
    const calm = run(5, () => second({ requests: 1000, server: { eventLoopDelayP99Ms: 20 } }));
    assert.equal(judgeBottleneck(calm, null), null);
    const once = run(5, (i) => second({ requests: 1000, server: { eventLoopDelayP99Ms: i === 2 ? 300 : 20 } }));
    assert.equal(judgeBottleneck(once, null), null);
  });

  // The loadtest study's sync server: Tomcat's request threads all asleep in their 500 ms, requests
  // timing out behind them, the CPU idle.
  const syncServer = (threads: (i: number) => number, server: Record<string, number> = {}) =>
    run(12, (i) =>
      second({
        requests: 200,
        p50Us: 500_000 + i * 150_000,
        timeouts: i > 3 ? 30 : 0,
        server: { processThreads: threads(i), processCpu: 0.2, processVoluntarySwitchesPerS: 2400, processInvoluntarySwitchesPerS: 15, runQueue: 1, ...server },
      }),
    );

  test('threads held at their cap while requests queue and the CPU idles: a thread pool exhausted', () => {
    const verdict = judgeBottleneck(syncServer((i) => (i === 0 ? 118 : 121)), 700);
    assert.equal(verdict?.verdict, 'server-bound');
    assert.deepEqual(kinds(verdict), ['below-target', 'timeouts', 'pool-exhausted', 'latency-rising', 'client-headroom']);
    assert.match(verdict!.headline, /\(its 121 threads were all taken while requests queued\)/);
    assert.match(messageOf(verdict, 'pool-exhausted'), /threads held at 121 in 12 s while requests queued, waiting rather than running: the process used at most 0\.2 of 2 cores, its threads waiting 2,400 times\/s against 15 preemptions\/s/);
  });

  test('no pool is named for few threads, a pool still growing, a saturated CPU or nothing queued', () => {
    // An event-loop server's handful of threads, and a JVM's own (Vert.x waiting on its database).
    assert.ok(!kinds(judgeBottleneck(syncServer(() => 11), 700)).includes('pool-exhausted'));
    assert.ok(!kinds(judgeBottleneck(syncServer(() => 38), 700)).includes('pool-exhausted'));
    // A pool that kept adding threads was not at its cap.
    assert.ok(!kinds(judgeBottleneck(syncServer((i) => 40 + i * 15), 700)).includes('pool-exhausted'));
    // Threads busy computing: the CPU is the story.
    const computing = judgeBottleneck(syncServer(() => 121, { processCpu: 1.9, cpu: 0.97, busiestCoreCpu: 1 }), 700);
    assert.deepEqual(kinds(computing).slice(0, 3), ['below-target', 'server-cpu', 'timeouts']);
    assert.ok(!kinds(computing).includes('pool-exhausted'));
    // A host kept busy by other processes while the server's own threads wait: still its pool (as measured on the lab).
    const busyHost = judgeBottleneck(syncServer(() => 89, { processCpu: 0.95, cpu: 0.99, busiestCoreCpu: 1 }), 500);
    assert.deepEqual(kinds(busyHost).slice(0, 4), ['below-target', 'server-cpu', 'timeouts', 'pool-exhausted']);
    // Nothing queued: a big idle pool is no bottleneck.
    assert.equal(judgeBottleneck(run(6, () => second({ server: { processThreads: 200 } })), null), null);
  });

  test('one saturated core while the others idle is named beside the server CPU; all cores busy is not', () => {
    const single = run(6, () => second({ requests: 300, server: { cores: 4, 'core.0': 0.08, 'core.1': 0.99, 'core.2': 0.05, 'core.3': 0.1, busiestCoreCpu: 0.99, processCpu: 1 } }));
    const verdict = judgeBottleneck(single, 1000);
    assert.deepEqual(kinds(verdict), ['below-target', 'server-cpu', 'one-core', 'client-headroom']);
    assert.match(verdict!.headline, /\(one core saturated while the others idled\)/);
    assert.match(messageOf(verdict, 'one-core'), /one core of 4 did the work: saturated in 6 s while the other 3 stayed at a median 8 % busy/);
    const all = run(6, () => second({ requests: 300, server: { cores: 4, 'core.0': 0.97, 'core.1': 0.99, 'core.2': 0.96, 'core.3': 0.98, cpu: 0.97, busiestCoreCpu: 0.99, processCpu: 3.8 } }));
    assert.deepEqual(kinds(judgeBottleneck(all, 1000)), ['below-target', 'server-cpu', 'client-headroom']);
    // Another process's busy core is not the server's.
    const other = run(6, () => second({ requests: 300, server: { cores: 4, 'core.0': 0.08, 'core.1': 0.99, 'core.2': 0.05, 'core.3': 0.1, busiestCoreCpu: 0.99, processCpu: 0.1 } }));
    assert.ok(!kinds(judgeBottleneck(other, 1000)).includes('one-core'));
  });

  test('threads preempted more than they wait, and retransmits, explain but never decide', () => {
    const preempted = run(5, () => second({ requests: 300, server: { processInvoluntarySwitchesPerS: 900, processVoluntarySwitchesPerS: 300, runQueue: 7, tcpRetransmits: 6 } }));
    const verdict = judgeBottleneck(preempted, 1000);
    assert.deepEqual(kinds(verdict), ['below-target', 'threads-preempted', 'retransmits', 'client-headroom']);
    assert.match(messageOf(verdict, 'threads-preempted'), /preempted more often than they waited in 5 s \(up to 900 involuntary switches\/s, run queue up to 7 on 2 cores\)/);
    assert.match(messageOf(verdict, 'retransmits'), /sent 30 TCP segments again \(retransmits\) in 5 s/);
    // Without a target and nothing decisive, they alone say nothing.
    assert.equal(judgeBottleneck(preempted.map((s) => ({ ...s, requests: 1000 })), null), null);
    // Waiting threads, or a run queue within the cores, are not preempted; a few retransmits are noise.
    const waiting = run(5, () => second({ requests: 300, server: { processInvoluntarySwitchesPerS: 200, processVoluntarySwitchesPerS: 3000, runQueue: 7, tcpRetransmits: 1 } }));
    assert.deepEqual(kinds(judgeBottleneck(waiting, 1000)), ['below-target', 'client-headroom']);
  });

  test("the profile's hottest frame is named when it holds most of the samples of work", () => {
    const hot: BottleneckProfile = { tool: 'v8', busySamples: 4000, hottest: { name: 'fib server.mjs:30', self: 2900 } };
    const seconds = run(6, () => second({ requests: 300 }));
    const verdict = judgeBottleneck(seconds, 1000, undefined, hot);
    assert.deepEqual(kinds(verdict), ['below-target', 'profile-hotspot', 'client-headroom']);
    assert.match(verdict!.headline, /\(most of its CPU time went to fib server\.mjs:30\)/);
    assert.match(messageOf(verdict, 'profile-hotspot'), /the CPU profile \(v8\) found most of the server's samples in one frame: fib server\.mjs:30, 73 % of 4,000 samples in its own code/);
    // Spread out, or too few samples to say: no frame named.
    assert.deepEqual(kinds(judgeBottleneck(seconds, 1000, undefined, { ...hot, hottest: { name: 'fib', self: 1800 } })), ['below-target', 'client-headroom']);
    assert.deepEqual(kinds(judgeBottleneck(seconds, 1000, undefined, { tool: 'jfr', busySamples: 30, hottest: { name: 'fib', self: 29 } })), ['below-target', 'client-headroom']);
    // A hot frame alone is how the server spends its time, not that it limited the run.
    assert.equal(judgeBottleneck(run(6, () => second()), null, undefined, hot), null);
    assert.equal(judgeBottleneck(run(6, () => second()), 1000, undefined, hot)?.verdict, 'neither');
  });

  test('the decisive causes lead the headline; a saturated agent stays client-bound, a merely lagging one does not', () => {
    const both = run(10, () => second({ requests: 300, server: { gcPauses: 4, gcPauseMs: 200, gcLongestPauseMs: 80, 'core.0': 1, 'core.1': 0.1, busiestCoreCpu: 1, processCpu: 1 } }));
    const verdict = judgeBottleneck(both, 1000, undefined, { tool: 'jfr', busySamples: 500, hottest: { name: 'Json.encode', self: 400 } });
    assert.deepEqual(kinds(verdict), ['below-target', 'server-cpu', 'gc', 'one-core', 'profile-hotspot', 'client-headroom']);
    assert.match(verdict!.headline, /\(GC took 20 % of its time\)/);
    // A lagging client beside a server in GC: the server's own readings say it was full.
    const lagging = gcRun(150).map((s) => ({ ...s, clientMetrics: { ...s.clientMetrics!, eventLoopLagMs: 400 } }));
    assert.equal(judgeBottleneck(lagging, 1000)?.verdict, 'server-bound');
    // A saturated agent measures itself whatever the server did; the GC is still listed.
    const saturated = gcRun(150).map((s) => ({ ...s, clientMetrics: { ...s.clientMetrics!, agentCpu: 0.98 } }));
    const client = judgeBottleneck(saturated, 1000);
    assert.equal(client?.verdict, 'client-bound');
    assert.ok(kinds(client).includes('gc'));
  });
});
