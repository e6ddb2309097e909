// The load agent end to end on this machine, as Benchlab drives it (start line, heartbeats, stop),
// against a real local HTTP server, once per engine: per-second samples that add up, fixed counts,
// pipelining, the open model's intended-time latency through a stall, stopping at once however it
// is asked to (stop, lost heartbeat, closed stdin, the cap), refused connections, and the bundle.
// The books of every line of every run balance (assertBooks).

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { HEARTBEAT_TIMEOUT_MS, type LoadAgentConfig } from '../../app/runs/agent-protocol.ts';
import { mergeEncodedHistograms, latencyStats } from '../../app/common/hdr.ts';
import { engineSkipOrFail } from '../../tests/support/lab-required.ts';
import { until } from '../../tests/support/until.ts';
import { assertBooks, endOf, runAgent, samplesOf, startTestServer, type AgentRun, type TestServer } from '../agent-harness.ts';
import { describeEachEngine } from './engines.ts';

const AGENT_BUNDLE = resolve(import.meta.dirname, '..', '..', 'out', 'agent', 'benchlab-agent.mjs');
// The bundle is built by npm test (build:agent): where the engine is required, its absence fails. A
// machine without a system Node has no older Node to try it on, and skips.
const bundleSkip = engineSkipOrFail(existsSync(AGENT_BUNDLE) ? null : 'the agent bundle is not built (npm run build:agent)') ?? (existsSync('/usr/bin/node') ? false : 'no /usr/bin/node here');

/** The run's last sample line: which second, and whether it was cut short. */
function lastSecondOf(run: AgentRun): { second: number; partial: boolean } {
  const last = samplesOf(run).at(-1)!;
  return { second: last.second, partial: last.durationMs < 1000 };
}

/** The agent has exited; its connections to the server close with it (a load going on would hold them). */
async function noLoadLeft(server: TestServer): Promise<void> {
  await until(async () => (await server.openConnections()) === 0, 'the agent’s connections to close', 5000);
}

function baseConfig(port: number, load: LoadAgentConfig['load'], extra: Partial<LoadAgentConfig>): LoadAgentConfig {
  return {
    role: 'load',
    target: { protocol: 'http', hostname: '127.0.0.1', port },
    request: { method: 'GET', path: '/hello', headers: {}, timeoutMs: 5000 },
    load,
    warmupS: 0,
    capS: 30,
    ...extra,
  };
}

describeEachEngine('agent: load', (engine) => {
  const loadConfig = (port: number, load: LoadAgentConfig['load'], extra: Partial<LoadAgentConfig> = {}) => engine.configure(baseConfig(port, load, extra));
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  test('closed model: one sample per second with warm-up marked, adding up to what the server answered', async () => {
    const before = server.answered();
    const run = await runAgent(loadConfig(server.port, { model: 'closed', connections: 4, pipelining: 1, durationS: 2 }, { warmupS: 1 }));
    assert.equal(endOf(run)?.reason, 'completed', run.stderr);
    assert.equal(run.lines.flatMap((line) => (line.type === 'hello' ? [line.engine] : []))[0], engine.kind, 'the hello names the engine');
    const books = assertBooks(run);
    assert.equal(books.windowMs, 2000);
    const samples = samplesOf(run);
    assert.deepEqual(
      samples.map((sample) => [sample.second, sample.phase]),
      [
        [0, 'warmup'],
        [1, 'measure'],
        [2, 'measure'],
        [3, 'drain'],
      ],
    );
    const responses = samples.reduce((sum, sample) => sum + sample.requests, 0);
    const answered = server.answered() - before;
    // Only warm-up requests in flight when the warm-up ended were answered by the server and counted nowhere.
    assert.ok(answered - responses >= 0 && answered - responses <= 4, `server ${answered}, agent ${responses}`);
    assert.equal(books.answered, books.scheduled, 'every measured request answered');
    for (const sample of samples.filter((line) => line.phase !== 'drain')) {
      // Each measured second was loaded (how many it answered is a speed figure: npm run bench).
      assert.ok(sample.requests > 0, `second ${sample.second}: ${sample.requests} responses`);
      assert.equal(sample.status['2xx'], sample.requests);
      assert.ok(sample.p50Us! > 0 && sample.p50Us! <= sample.p99Us! && sample.p99Us! <= sample.maxUs!);
      assert.equal(mergeEncodedHistograms([sample.histogram]).totalCount, sample.requests);
      assert.equal(sample.client.cores > 0, true);
      assert.ok(sample.client.openSockets <= 4);
    }
    // Sub-millisecond latencies are resolved, not truncated to whole milliseconds.
    const stats = latencyStats(mergeEncodedHistograms(samples.map((sample) => sample.histogram)));
    assert.ok(stats.p50Us! % 1000 !== 0 || stats.p50Us! < 1000);
  });

  test('closed model with a fixed request count sends exactly that many (ab -n 2000 -c 10)', async () => {
    const before = server.answered();
    const run = await runAgent(loadConfig(server.port, { model: 'closed', connections: 10, pipelining: 1, requests: 2000 }));
    assert.equal(endOf(run)?.reason, 'completed', run.stderr);
    assert.equal(assertBooks(run).scheduled, 2000);
    assert.equal(samplesOf(run).reduce((sum, sample) => sum + sample.requests, 0), 2000);
    assert.equal(server.answered() - before, 2000);
  });

  test('pipelining sends several requests per connection', async () => {
    const run = await runAgent(loadConfig(server.port, { model: 'closed', connections: 2, pipelining: 8, requests: 1000 }));
    assert.equal(endOf(run)?.reason, 'completed', run.stderr);
    assert.equal(assertBooks(run).scheduled, 1000);
    assert.equal(samplesOf(run).reduce((sum, sample) => sum + sample.requests, 0), 1000);
  });

  test('open model: "N requests over T s" sends N on schedule', async () => {
    const before = server.answered();
    const run = await runAgent(loadConfig(server.port, { model: 'open', requests: 600, durationS: 2, connections: 20 }));
    assert.equal(endOf(run)?.reason, 'completed', run.stderr);
    const books = assertBooks(run);
    assert.equal(books.scheduled, 600);
    assert.equal(books.windowMs, 2000);
    const samples = samplesOf(run);
    assert.equal(samples.reduce((sum, sample) => sum + sample.requests, 0), 600);
    assert.equal(server.answered() - before, 600);
    // Every slot was sent. How the slots spread over the seconds is the arrival schedule's own unit
    // test (agent/arrival-schedule.test.ts): here a second's edges move with the machine's load.
    assert.equal(samples.reduce((sum, sample) => sum + sample.client.sent, 0), 600);
  });

  test('open model: a 1 s server stall shows in p99, measured from intended send times', async () => {
    // The stall starts a little into the second second of load, however long the agent took to start.
    let stall: ReturnType<typeof setTimeout> | undefined;
    const run = await runAgent(loadConfig(server.port, { model: 'open', rate: 400, durationS: 4, connections: 10 }), {
      onLine: (line) => {
        if (line.type === 'sample' && line.second === 0) stall = setTimeout(() => server.stall(1000), 300);
      },
    });
    clearTimeout(stall);
    assert.equal(endOf(run)?.reason, 'completed', run.stderr);
    assertBooks(run);
    const stats = latencyStats(mergeEncodedHistograms(samplesOf(run).map((sample) => sample.histogram)));
    // ~400 requests were due during the stall: about a quarter of the run waited up to a second.
    assert.ok(stats.p99Us! > 700_000, `p99 ${stats.p99Us} µs`);
    assert.ok(stats.p90Us! > 300_000, `p90 ${stats.p90Us} µs`);
    // Most requests were due outside the stall: the median sits far below the stalled tail.
    assert.ok(2 * stats.p50Us! < stats.p99Us!, `p50 ${stats.p50Us} µs against p99 ${stats.p99Us} µs`);
  });

  // Stopping is asserted in the agent's own seconds (its sample lines) and by the server's closed
  // connections, not in wall-clock milliseconds: how fast it stops is a figure of npm run bench.
  test('stop halts the load in the second it arrives', async () => {
    const reachedBefore = server.answered();
    const run = await runAgent(loadConfig(server.port, { model: 'closed', connections: 4, pipelining: 1, durationS: 20 }), { stopWhen: (line) => line.type === 'sample' && line.second === 0 });
    assert.equal(endOf(run)?.reason, 'stopped');
    const books = assertBooks(run);
    assert.deepEqual(lastSecondOf(run), { second: 1, partial: true }, 'after the stop, only the second it came in was measured');
    await noLoadLeft(server);
    // Nothing goes out after the cut: every request the server saw is in the books, answered or
    // still in flight on the last line (a request the server got but never answered is in flight).
    const reached = server.answered() - reachedBefore;
    const sent = books.scheduled - Object.values(books.notSent).reduce((sum, count) => sum + count, 0);
    assert.ok(reached <= sent, `the server saw ${reached} requests, the books hold ${sent} sent`);
    assert.ok(reached >= books.answered, `the server saw ${reached} requests, the books hold ${books.answered} answered`);
  });

  test('without heartbeats the agent stops its load once it has heard nothing for the timeout', async () => {
    const run = await runAgent(loadConfig(server.port, { model: 'closed', connections: 2, pipelining: 1, durationS: 30 }), { heartbeat: false });
    assert.equal(endOf(run)?.reason, 'heartbeat');
    assertBooks(run);
    // Its last line is the second in which the timeout ran out (from its hello, the last thing it heard), not the 30th.
    const last = lastSecondOf(run);
    assert.ok(last.partial && last.second <= HEARTBEAT_TIMEOUT_MS / 1000, `load measured up to second ${last.second}`);
    await noLoadLeft(server);
  });

  test('a closed stdin (Benchlab gone) stops it at once', async () => {
    const run = await runAgent(loadConfig(server.port, { model: 'closed', connections: 2, pipelining: 1, durationS: 30 }), { closeStdinWhen: (line) => line.type === 'sample' && line.second === 0 });
    assert.equal(endOf(run)?.reason, 'stdin-closed');
    assertBooks(run);
    assert.deepEqual(lastSecondOf(run), { second: 1, partial: true }, 'after stdin closed, only the second it closed in was measured');
    await noLoadLeft(server);
  });

  test('an agent killed outright (SIGKILL) leaves no load behind', async () => {
    const run = await runAgent(loadConfig(server.port, { model: 'closed', connections: 2, pipelining: 1, durationS: 30 }), { killWhen: (line) => line.type === 'sample' && line.second === 0 });
    assert.equal(run.exitSignal, 'SIGKILL');
    await noLoadLeft(server);
  });

  test('the hard cap ends a step that would run on', async () => {
    const run = await runAgent(loadConfig(server.port, { model: 'closed', connections: 2, pipelining: 1, durationS: 60 }, { capS: 1.5 }));
    assert.equal(endOf(run)?.reason, 'cap');
    assertBooks(run);
  });

  test('a refused target is counted as refused errors in both models, without crashing', async () => {
    const closedPort = await startTestServer().then(async (other) => {
      const port = other.port;
      await other.close();
      return port;
    });
    const closed = await runAgent(loadConfig(closedPort, { model: 'closed', connections: 2, pipelining: 1, durationS: 1 }));
    assert.equal(endOf(closed)?.reason, 'completed', closed.stderr);
    const closedBooks = assertBooks(closed);
    assert.ok(closedBooks.errors.refused! > 0);
    assert.equal(closedBooks.errors.refused, closedBooks.scheduled);
    const open = await runAgent(loadConfig(closedPort, { model: 'open', rate: 50, durationS: 1, connections: 5 }));
    assert.equal(endOf(open)?.reason, 'completed', open.stderr);
    const openBooks = assertBooks(open);
    // Every slot is tried on a connection of its own and refused: no reconnect loop, nothing lost.
    assert.equal(openBooks.scheduled, 50);
    assert.equal(openBooks.errors.refused, 50);
  });

  test('the bundle runs on the oldest Node it targets that is here (/usr/bin/node)', { skip: bundleSkip }, async () => {
    const run = await runAgent(loadConfig(server.port, { model: 'closed', connections: 2, pipelining: 1, requests: 200 }), { node: '/usr/bin/node', script: AGENT_BUNDLE });
    assert.equal(endOf(run)?.reason, 'completed', run.stderr);
    // The engine choice survives bundling: the bundled agent ran the load on this engine.
    assert.equal(run.lines.flatMap((line) => (line.type === 'hello' ? [line.engine] : []))[0], engine.kind);
    assertBooks(run);
    assert.equal(samplesOf(run).reduce((sum, sample) => sum + sample.requests, 0), 200);
  });
});
