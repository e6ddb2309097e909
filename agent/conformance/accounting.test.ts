// The agent's books against servers that misbehave on purpose (agent-harness.ts' scripted server),
// once per engine: a FIN or a reset under a request fails it by kind and timing restarts cleanly;
// a silent server's timeouts run from the intended time and enter the histogram at the timeout
// (open model) or are counted only (closed); a full pool leaves slots not sent; connections open
// on demand; fixed counts schedule exactly N; the window is exactly the duration and ONE drain
// line settles the rest, cut short by the cap if need be.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { LoadAgentConfig } from '../../app/runs/agent-protocol.ts';
import { latencyStats, mergeEncodedHistograms } from '../../app/common/hdr.ts';
import { assertBooks, endOf, runAgent, samplesOf, startScriptedServer, type AgentRun, type ScriptedServer } from '../agent-harness.ts';
import { describeEachEngine, type Engine } from './engines.ts';

function loadConfig(
  engine: Engine,
  port: number,
  load: LoadAgentConfig['load'],
  extra: { warmupS?: number; timeoutMs?: number; onTimeout?: LoadAgentConfig['request']['onTimeout'] } = {},
): LoadAgentConfig {
  return engine.configure({
    role: 'load',
    target: { protocol: 'http', hostname: '127.0.0.1', port },
    request: { method: 'GET', path: '/', headers: {}, timeoutMs: extra.timeoutMs ?? 5000, ...(extra.onTimeout ? { onTimeout: extra.onTimeout } : {}) },
    load,
    warmupS: extra.warmupS ?? 0,
    capS: 30,
  });
}

function latency(run: AgentRun, phases: string[] = ['measure', 'drain']) {
  const lines = samplesOf(run).filter((line) => phases.includes(line.phase));
  return mergeEncodedHistograms(lines.map((line) => line.histogram));
}

async function completed(config: LoadAgentConfig): Promise<AgentRun> {
  const run = await runAgent(config);
  assert.equal(endOf(run)?.reason, 'completed', run.stderr);
  return run;
}

/** The servers' own delay before each answer: the floor of every latency they give. */
const SERVER_DELAY_MS = 20;

describeEachEngine('agent accounting: a 20 ms server that closes (FIN) every 10th request instead of answering it', (engine) => {
  let server: ScriptedServer;
  let steady: ScriptedServer;
  before(async () => {
    server = await startScriptedServer({ answerAfterMs: SERVER_DELAY_MS, endEvery: { n: 10, how: 'fin' } });
    // The same server without the closes, loaded at the same time: what its latency is on this machine now.
    steady = await startScriptedServer({ answerAfterMs: SERVER_DELAY_MS });
  });
  after(() => Promise.all([server.close(), steady.close()]));

  for (const load of [
    { model: 'closed', connections: 4, pipelining: 1, durationS: 2 },
    { model: 'open', rate: 100, durationS: 2 },
  ] as const) {
    test(`${load.model} model: the closes are errors of kind closed, latency stays the server's 20 ms`, async () => {
      const [run, steadyRun] = await Promise.all([completed(loadConfig(engine, server.port, load)), completed(loadConfig(engine, steady.port, load))]);
      const books = assertBooks(run);
      const stats = latencyStats(latency(run));
      const steadyStats = latencyStats(latency(steadyRun));
      // No answer comes sooner than the server's own delay, however busy or quiet the machine.
      assert.ok(stats.p50Us! >= SERVER_DELAY_MS * 1000, `p50 ${stats.p50Us} µs: below the server's own ${SERVER_DELAY_MS} ms`);
      // Answers timed against an older request would carry that request's time too, moving the
      // median by a request's time (closed) or a slot's (open). Both servers are loaded at once, so
      // a busy machine slows both: the median with the closes stays within the answers without
      // them, up to their slowest (p99). The tail is left alone: the connections opened again after
      // the closes lengthen it on a busy machine, rightly.
      assert.ok(stats.p50Us! <= steadyStats.p99Us!, `p50 ${stats.p50Us} µs, p99 ${steadyStats.p99Us} µs without the closes: answers were timed against an older request`);
      // Each connection answers 9 and is closed under the 10th; those still open at the end answered at most 9.
      const closed = books.errors.closed ?? 0;
      const opened = samplesOf(run).reduce((sum, line) => sum + line.client.newConnections, 0);
      assert.ok(closed > 0 && books.answered >= 9 * closed && books.answered <= 9 * opened, `${books.answered} answered, ${closed} closed, ${opened} opened`);
      assert.equal(books.answered + closed, books.scheduled);
    });
  }
});

describeEachEngine('agent accounting: misbehaving servers', (engine) => {
  const servers: ScriptedServer[] = [];
  const start = async (script: Parameters<typeof startScriptedServer>[0]) => {
    const server = await startScriptedServer(script);
    servers.push(server);
    return server;
  };
  after(() => Promise.all(servers.map((server) => server.close())));

  test('a reset (RST) under a request fails it as reset', async () => {
    const server = await start({ answerAfterMs: 2, endEvery: { n: 5, how: 'reset' } });
    const run = await completed(loadConfig(engine, server.port, { model: 'closed', connections: 2, pipelining: 1, durationS: 1 }));
    const books = assertBooks(run);
    const reset = books.errors.reset ?? 0;
    const opened = samplesOf(run).reduce((sum, line) => sum + line.client.newConnections, 0);
    assert.ok(reset > 0 && books.answered >= 4 * reset && books.answered <= 4 * opened, `${books.answered} answered, ${reset} reset, ${opened} opened`);
    assert.equal(books.answered + reset, books.scheduled);
  });

  test('open model, silent server: timeouts run from the intended time and enter the histogram at the timeout', async () => {
    const server = await start({});
    // One connection, a slot every 100 ms, 500 ms timeouts: each slot waits for the one before it to
    // time out. Timed from the intended time, each is sent when its predecessor times out and times
    // out 100 ms later, so none outwaits its timeout; timed from the write, the waits would pile up
    // into slots not sent.
    const run = await completed(loadConfig(engine, server.port, { model: 'open', rate: 10, durationS: 1, connections: 1 }, { timeoutMs: 500 }));
    const books = assertBooks(run);
    assert.equal(books.scheduled, 10);
    assert.equal(books.errors.timeout, 10);
    assert.equal(books.notSent['pool-full'], 0);
    const histogram = latency(run);
    assert.equal(histogram.totalCount, 10);
    assert.ok(histogram.minNonZeroValue >= 499_000 && histogram.maxValue <= 501_000, `${histogram.minNonZeroValue}..${histogram.maxValue} µs`);
    assert.equal(books.windowMs, 1000);
  });

  test('closed model, silent server: timeouts are counted from the write, latency stays service time', async () => {
    const server = await start({});
    const run = await completed(loadConfig(engine, server.port, { model: 'closed', connections: 2, pipelining: 1, durationS: 1 }, { timeoutMs: 300 }));
    const books = assertBooks(run);
    assert.ok(books.scheduled >= 4, `${books.scheduled} scheduled`);
    assert.equal(books.errors.timeout, books.scheduled);
    assert.equal(latency(run).totalCount, 0);
  });

  test('closed model, onTimeout wait: a late answer is a timeout and its connection waits for it, as wrk counts; close opens a new one', async () => {
    // Every answer comes 300 ms after its request, three times the 100 ms timeout.
    const server = await start({ answerAfterMs: 300 });
    const load = { model: 'closed', connections: 2, pipelining: 1, durationS: 1 } as const;
    const [waiting, closing] = await Promise.all([
      completed(loadConfig(engine, server.port, load, { timeoutMs: 100, onTimeout: 'wait' })),
      completed(loadConfig(engine, server.port, load, { timeoutMs: 100 })),
    ]);
    for (const run of [waiting, closing]) {
      const books = assertBooks(run);
      // Every request is a timeout, once: the late answer read after it counts for nothing.
      assert.equal(books.errors.timeout, books.scheduled);
      assert.equal(books.answered, 0);
      assert.equal(latency(run).totalCount, 0);
    }
    const opened = (run: AgentRun) => samplesOf(run).reduce((sum, line) => sum + line.client.newConnections, 0);
    // Waiting keeps the two connections for the whole step; closing gives up each request's.
    assert.equal(opened(waiting), 2);
    assert.ok(opened(closing) > 2 * 2, `${opened(closing)} connections opened when closing on timeout`);
    // A waiting connection sends its next request only after the late answer: at most one per
    // 300 ms each, however fast the machine, where closing sends one per timeout.
    const scheduled = (run: AgentRun) => assertBooks(run).scheduled;
    assert.ok(scheduled(waiting) <= 2 * (Math.ceil(1000 / 300) + 1), `${scheduled(waiting)} requests on two waiting connections`);
    assert.ok(scheduled(waiting) < scheduled(closing), `${scheduled(waiting)} waiting, ${scheduled(closing)} closing`);
  });

  test('the pool maximum reached: slots that outwait their timeout are not sent (pool-full)', async () => {
    const server = await start({});
    // 2000 slots/s for one connection that never gets an answer: slots expire while they wait.
    const run = await completed(loadConfig(engine, server.port, { model: 'open', rate: 2000, durationS: 0.5, connections: 1 }, { timeoutMs: 200 }));
    const books = assertBooks(run);
    assert.equal(books.scheduled, 1000);
    const poolFull = books.notSent['pool-full'] ?? 0;
    // Each slot times out on the wire or outwaits its timeout unsent. The split is the engine's timer
    // precision: the timed-out request's deadline comes before every waiting slot's, so a slot expires
    // unsent only when the loop wakes late (Node's millisecond timers: about half; the native engine's
    // nanosecond waits: a few, or none on a quiet machine).
    if (engine.kind === 'node') assert.ok(poolFull > 100, `${poolFull} pool-full`);
    assert.equal((books.errors.timeout ?? 0) + poolFull, 1000);
    // Only what was sent has a latency.
    assert.equal(latency(run).totalCount, books.errors.timeout);
    // At most the one connection allowed at a time: the first, then one more only after a timed-out
    // request's connection was closed. So at most timeouts + 1 were opened; the +1 is a connection
    // whose slot outwaited its timeout while it connected (a busy machine), counted pool-full.
    const timeouts = books.errors.timeout ?? 0;
    for (const line of samplesOf(run)) {
      assert.ok(line.client.openSockets <= 1 && line.client.newConnections <= timeouts + 1, `open ${line.client.openSockets}, new ${line.client.newConnections}, timeouts ${timeouts}`);
    }
  });

  test('open model without a maximum: connections open on demand, counted with their connect time', async () => {
    const server = await start({ answerAfterMs: 20 });
    const run = await completed(loadConfig(engine, server.port, { model: 'open', rate: 200, durationS: 1 }));
    const books = assertBooks(run);
    assert.equal(books.scheduled, 200);
    assert.equal(books.answered, 200);
    const lines = samplesOf(run);
    const opened = lines.reduce((sum, line) => sum + line.client.newConnections, 0);
    // About rate × answer time (4) are busy at once, far below the default maximum (rate × timeout =
    // 1000): opened on demand, not up front. A busy machine that stalls the loop releases slots in
    // bunches, each needing a connection, hence the wide margin.
    assert.ok(opened >= 2 && opened <= 100, `${opened} connections opened`);
    assert.ok(lines[0]!.client.connectUsMax! > 0);
  });

  test('warm-up requests answered after the warm-up count nowhere; the window is exact; ONE drain line carries the answers still due', async () => {
    const server = await start({ answerAfterMs: 300 });
    const run = await completed(loadConfig(engine, server.port, { model: 'open', rate: 50, durationS: 1.5 }, { warmupS: 1 }));
    const books = assertBooks(run);
    const lines = samplesOf(run);
    assert.deepEqual(
      lines.map((line) => [line.phase, line.phase === 'drain' ? 'drain' : line.durationMs]),
      [
        ['warmup', 1000],
        ['measure', 1000],
        ['measure', 500],
        ['drain', 'drain'],
      ],
    );
    assert.equal(books.windowMs, 1500);
    const firstMeasured = lines[1]!;
    // ~15 warm-up requests were in flight at the switch; none is answered in a measured line.
    assert.ok(lines[0]!.inFlight > 5, `${lines[0]!.inFlight} in flight after the warm-up`);
    assert.ok(firstMeasured.requests <= firstMeasured.scheduled);
    const lastMeasured = lines[2]!;
    assert.ok(lastMeasured.inFlight > 5, `${lastMeasured.inFlight} in flight at the window's end`);
    assert.equal(books.drain!.requests, lastMeasured.inFlight);
    assert.ok(books.drain!.durationMs <= 5000 + 500);
    assert.equal(books.scheduled, 75);
    assert.equal(books.answered, 75);
  });

  test('a drain cut short by the cap: what is on the wire is a timeout, what waits for a connection was never sent (step-ended)', async () => {
    const server = await start({});
    // One connection to a silent server, a slot every 100 ms, 5 s timeouts: the first slot is on the
    // wire, the nine after it wait for the connection; the cap (2 s) ends the drain long before any
    // timeout runs out.
    const run = await completed({ ...loadConfig(engine, server.port, { model: 'open', rate: 10, durationS: 1, connections: 1 }, { timeoutMs: 5000 }), capS: 2 });
    const books = assertBooks(run);
    assert.equal(books.scheduled, 10);
    assert.deepEqual([books.errors.timeout, books.notSent['step-ended'], books.notSent['pool-full']], [1, 9, 0]);
    assert.ok(books.drain!.durationMs < 5000, `the drain lasted ${books.drain!.durationMs} ms, past the cap`);
  });

  test('open model, stopped with answers due: the last line is cut short and reports them in flight, nothing is sent after it', async () => {
    const server = await start({ answerAfterMs: 300 });
    const run = await runAgent(loadConfig(engine, server.port, { model: 'open', rate: 200, durationS: 20 }), { stopWhen: (line) => line.type === 'sample' && line.second === 0 });
    assert.equal(endOf(run)?.reason, 'stopped', run.stderr);
    const books = assertBooks(run);
    const last = samplesOf(run).at(-1)!;
    assert.ok(last.phase === 'measure' && last.durationMs < 1000, `last line: ${last.phase}, ${last.durationMs} ms`);
    // About rate × answer time (60) are due at any moment.
    assert.ok(last.inFlight > 10, `${last.inFlight} in flight on the last line`);
    const sent = books.scheduled - Object.values(books.notSent).reduce((sum, count) => sum + count, 0);
    assert.ok(server.received() <= sent, `the server got ${server.received()} requests, the books hold ${sent} sent`);
  });

  test('a fixed count after a warm-up schedules exactly N measured requests', async () => {
    const server = await start({ answerAfterMs: 1 });
    const run = await completed(loadConfig(engine, server.port, { model: 'closed', connections: 3, pipelining: 2, requests: 300 }, { warmupS: 1 }));
    const books = assertBooks(run);
    assert.equal(books.scheduled, 300);
    assert.equal(books.answered, 300);
  });
});
