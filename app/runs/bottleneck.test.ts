// Tests of the bottleneck verdict from per-second readings as stored: the agent's own CPU (not the
// machine's), lag, the connection maximum and ports on the client side; the achieved rate with
// rising latency, saturated server CPU and accept-queue overflows on the server side.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { judgeBottleneck, type BottleneckSecond } from './bottleneck.ts';

/** A one-thread agent on a 2-core client, mostly idle; a 4-core server, mostly idle. */
const CLIENT = { cpu: 0.2, agentCpu: 0.2, cores: 2, loadThreads: 1, agentCoresBusy: 0.3, eventLoopLagMs: 3, openSockets: 50, timeWait: 0, portErrors: 0, portRangeSize: 28232, durationMs: 1000 };
const SERVER = { cpu: 0.1, busiestCoreCpu: 0.2, processCpu: 0.2, cores: 4, listenOverflows: 0, listenDrops: 0 };

function second(options: { requests?: number; p50Us?: number; client?: Record<string, number>; server?: Record<string, number> | null; poolFull?: number; timeouts?: number } = {}): BottleneckSecond {
  return {
    requests: options.requests ?? 1000,
    p50Us: options.p50Us ?? 2000,
    notSent: { 'pool-full': options.poolFull ?? 0, 'step-ended': 0 },
    errors: { timeout: options.timeouts ?? 0, refused: 0, reset: 0, closed: 0, other: 0 },
    clientMetrics: { ...CLIENT, ...options.client },
    serverMetrics: options.server === null ? null : { ...SERVER, ...options.server },
  };
}

const run = (count: number, make: (i: number) => BottleneckSecond) => Array.from({ length: count }, (_, i) => make(i));
const kinds = (verdict: ReturnType<typeof judgeBottleneck>) => verdict?.evidence.map((evidence) => evidence.kind);

describe('bottleneck verdict', () => {
  test('target met: neither side, whatever else ran on the client machine', () => {
    const verdict = judgeBottleneck(run(5, () => second({ client: { cpu: 1 } })), 1000);
    assert.equal(verdict?.verdict, 'neither');
    assert.deepEqual(kinds(verdict), ['target-met']);
  });

  test('a busy client machine but an idle agent is not client-bound', () => {
    // The machine is 100 % busy (another process) and the rate is missed; the agent uses 0.2 of its core.
    const closed = judgeBottleneck(run(5, () => second({ client: { cpu: 1 } })), null);
    assert.equal(closed, null);
    const open = judgeBottleneck(run(5, () => second({ requests: 2, client: { cpu: 1 } })), 700);
    assert.equal(open?.verdict, 'server-bound');
    assert.ok(!kinds(open)!.includes('agent-cpu'));
    assert.match(open!.evidence.find((e) => e.kind === 'client-headroom')!.message, /at most 0\.2 cores for 1 load thread, event-loop lag at most 3 ms/);
  });

  test('a saturated agent is client-bound, with its CPU as the evidence', () => {
    const verdict = judgeBottleneck(run(5, () => second({ requests: 600, client: { agentCpu: 0.97, agentCoresBusy: 0.99 } })), 1000);
    assert.equal(verdict?.verdict, 'client-bound');
    assert.deepEqual(kinds(verdict), ['below-target', 'agent-cpu']);
    assert.match(verdict!.evidence[1]!.message, /reached 1\.0 cores for 1 load thread \(97 %\) in 5 s; the cores it ran on were up to 99 % busy/);
    // The closed model has no target: the saturated agent alone is the verdict.
    assert.equal(judgeBottleneck(run(3, () => second({ client: { agentCpu: 1.9, loadThreads: 2 } })), null)?.verdict, 'client-bound');
  });

  test('an agent sharing saturated cores counts once it uses half of them; a single busy second does not', () => {
    const shared = judgeBottleneck(run(4, () => second({ client: { agentCpu: 0.6, agentCoresBusy: 0.98 } })), null);
    assert.deepEqual(kinds(shared), ['agent-cpu']);
    assert.equal(judgeBottleneck(run(4, () => second({ client: { agentCpu: 0.3, agentCoresBusy: 0.98 } })), null), null);
    assert.equal(judgeBottleneck(run(4, (i) => second({ client: { agentCpu: i === 0 ? 1 : 0.2 } })), null), null);
  });

  test('event-loop lag and exhausted ports are the client', () => {
    assert.deepEqual(kinds(judgeBottleneck(run(3, () => second({ client: { eventLoopLagMs: 120 } })), null)), ['event-loop-lag']);
    const ports = judgeBottleneck([second({ client: { portErrors: 2 } })], null);
    assert.equal(ports?.verdict, 'client-bound');
    assert.match(ports!.evidence[0]!.message, /no free local port for 2 connection attempts/);
  });

  test('below target with an idle client, rising latency and a saturated server core: server-bound', () => {
    // A single-threaded server: one of 4 cores full is 25 % of the machine, and still saturated.
    const seconds = run(9, (i) => second({ requests: 30, p50Us: 50_000 + i * 400_000, server: { cpu: 0.27, busiestCoreCpu: 0.99, processCpu: 1.0 } }));
    const verdict = judgeBottleneck(seconds, 700);
    assert.equal(verdict?.verdict, 'server-bound');
    assert.deepEqual(kinds(verdict), ['below-target', 'server-cpu', 'latency-rising', 'client-headroom']);
    assert.match(verdict!.evidence[0]!.message, /achieved 30 of the 700 requests\/s target \(4 %\)/);
    assert.match(verdict!.evidence[1]!.message, /busiest core up to 99 %, the server process using up to 1\.0 cores/);
    assert.match(verdict!.evidence[2]!.message, /median p50 from 450 ms to 2850 ms/);
  });

  test('a busy server core that is not the server process is not server CPU', () => {
    const verdict = judgeBottleneck(run(3, () => second({ requests: 30, server: { busiestCoreCpu: 1, processCpu: 0.1 } })), 700);
    assert.deepEqual(kinds(verdict), ['below-target', 'client-headroom']);
  });

  test('listen overflows are server evidence, in the closed model too', () => {
    const open = judgeBottleneck(run(3, (i) => second({ requests: 100, server: { listenOverflows: i === 1 ? 40 : 0, listenDrops: i === 1 ? 40 : 0 } })), 700);
    assert.equal(open?.verdict, 'server-bound');
    assert.match(open!.evidence.find((e) => e.kind === 'listen-overflows')!.message, /40 connections dropped at the listener .* in 1 s/);
    assert.equal(judgeBottleneck(run(3, () => second({ server: { listenDrops: 5 } })), null)?.verdict, 'server-bound');
  });

  test('the connection maximum reached is the client’s setting, unless the server was saturated anyway', () => {
    const pool = judgeBottleneck(run(4, () => second({ requests: 400, poolFull: 300 })), 700);
    assert.equal(pool?.verdict, 'client-bound');
    assert.deepEqual(kinds(pool), ['below-target', 'pool-full']);
    assert.match(pool!.evidence[1]!.message, /1200 requests not sent in 4 s/);
    const saturated = judgeBottleneck(run(4, () => second({ requests: 400, poolFull: 300, server: { busiestCoreCpu: 1, processCpu: 1 } })), 700);
    assert.equal(saturated?.verdict, 'server-bound');
    assert.deepEqual(kinds(saturated), ['below-target', 'server-cpu', 'pool-full', 'client-headroom']);
  });

  test('a full pool while requests time out is the server: a sleeping server holds every connection for the timeout', () => {
    // The sync server blocks its thread (idle CPU): connections fill with requests it never answers in time.
    const verdict = judgeBottleneck(run(4, (i) => second({ requests: 20, p50Us: 1_000_000 + i * 500_000, poolFull: i > 1 ? 80 : 0, timeouts: i > 0 ? 60 : 0 })), 100);
    assert.equal(verdict?.verdict, 'server-bound');
    assert.deepEqual(kinds(verdict), ['below-target', 'timeouts', 'latency-rising', 'pool-full', 'client-headroom']);
    assert.match(verdict!.evidence[1]!.message, /180 requests got no answer within the timeout in 3 s/);
  });

  test('rows stored before the newer fields still judge (threads fall back to all cores)', () => {
    const old = { cpu: 0.9, agentCpu: 1.9, cores: 2, eventLoopLagMs: 2, openSockets: 10, timeWait: 0, portErrors: 0, durationMs: 1000 };
    const verdict = judgeBottleneck(run(3, () => ({ requests: 100, p50Us: 1000, clientMetrics: old, serverMetrics: null })), 1000);
    assert.deepEqual(kinds(verdict), ['below-target', 'agent-cpu']);
    assert.equal(judgeBottleneck([], 1000), null);
  });

  // The loadtest study's sync servers, as measured: 26,712 timeouts and 108,133 listen drops over the
  // window, the server's one core saturated by its process, and the loaded client's event loop
  // lagging 3–5 s. The lag alone named the client; the server's own readings say it was full.
  const overloadedSyncServer = (count: number) =>
    run(count, (i) =>
      second({
        requests: 150,
        p50Us: 900_000 + i * 200_000,
        timeouts: Math.round(26_712 / count),
        client: { eventLoopLagMs: 3000 + (i % 3) * 1000, agentCpu: 0.4 },
        server: { cpu: 0.55, busiestCoreCpu: 1, processCpu: 1, listenDrops: Math.round(108_133 / count), listenOverflows: Math.round(108_133 / count) },
      }),
    );

  test('an overloaded server is server-bound even while the loaded client lags seconds', () => {
    const open = judgeBottleneck(overloadedSyncServer(20), 1000);
    assert.equal(open?.verdict, 'server-bound');
    assert.deepEqual(kinds(open), ['below-target', 'server-cpu', 'listen-overflows', 'timeouts', 'latency-rising', 'event-loop-lag']);
    assert.ok(!kinds(open)!.includes('client-headroom'), 'a lagging client is not said to have had headroom');
    assert.match(open!.headline, /server is the bottleneck: it was saturated/);
    assert.match(open!.evidence.find((e) => e.kind === 'timeouts')!.message, /26720 requests got no answer within the timeout in 20 s/);
    // The closed model: the same rule.
    assert.equal(judgeBottleneck(overloadedSyncServer(20), null)?.verdict, 'server-bound');
  });

  test('lag alone with a server that shows no saturation is still the client', () => {
    assert.equal(judgeBottleneck(run(5, () => second({ requests: 200, client: { eventLoopLagMs: 4000 } })), 1000)?.verdict, 'client-bound');
    // A saturated agent stays client evidence beside a saturated server: the numbers measure the generator too.
    const both = judgeBottleneck(run(5, () => second({ requests: 200, timeouts: 50, client: { eventLoopLagMs: 4000, agentCpu: 0.98 } })), 1000);
    assert.equal(both?.verdict, 'client-bound');
  });

  test('client and server on one machine: the verdict names no side', () => {
    const shared = { sharedMachine: true };
    // The shared-machine run as measured: below target, the server process at 0.5 of 2 cores, an idle-looking agent.
    const seconds = run(10, () => second({ requests: 300, client: { agentCpu: 0.5, cores: 2 }, server: { cores: 2, cpu: 0.7, busiestCoreCpu: 0.8, processCpu: 0.5 } }));
    assert.equal(judgeBottleneck(seconds, 1000)?.verdict, 'server-bound', 'apart, the idle agent would clear the client');
    const verdict = judgeBottleneck(seconds, 1000, shared);
    assert.equal(verdict?.verdict, 'shared-machine');
    assert.deepEqual(kinds(verdict), ['same-machine', 'below-target']);
    assert.match(verdict!.headline, /share one machine: which side limited the run cannot be told apart/);
    assert.match(verdict!.evidence[0]!.message, /same boot id.*server process used up to 0\.5 cores/);
    // Whichever side's evidence there is, none is named: the overloaded server and the lagging client alike.
    assert.equal(judgeBottleneck(overloadedSyncServer(10), 1000, shared)?.verdict, 'shared-machine');
    assert.equal(judgeBottleneck(run(3, () => second({ client: { agentCpu: 0.98 } })), null, shared)?.verdict, 'shared-machine');
    // The target met is met on one machine too; nothing to say stays nothing.
    assert.equal(judgeBottleneck(run(5, () => second()), 1000, shared)?.verdict, 'neither');
    assert.equal(judgeBottleneck(run(5, () => second()), null, shared), null);
  });
});
