// Think time on both engines: each connection pauses before each request, so N connections with a
// pause T send at most N per T (a connection cannot send more than one request per pause), fewer
// with a longer pause, and more with random pauses of a shorter mean; the pause is in no latency (a
// typical answer is much shorter than the pause); kept-alive connections stay open through their
// pauses, and a connection per request is opened after each. Relations only: to each other and to
// the configured pause, never absolute rates or latencies.

import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, test } from 'node:test';
import type { LoadAgentConfig } from '../../app/runs/agent-protocol.ts';
import { latencyStats, mergeEncodedHistograms } from '../../app/common/hdr.ts';
import { ThinkTime, type ThinkTimeInput } from '../../app/runs/think-time.ts';
import { assertBooks, endOf, listenOnLoopback, runAgent, samplesOf, Tally } from '../agent-harness.ts';
import { describeEachEngine, type Engine } from './engines.ts';

const CONNECTIONS = 4;
const DURATION_S = 2;
/** The pause T of the fixed cases (ms): long beside a loopback answer, short beside the window. */
const PAUSE_MS = 100;

interface CountingServer {
  port: number;
  /** Connections accepted since the last call. */
  takeConnections(): number;
  close(): Promise<void>;
}

/** `closeIdleAfterMs`: the server closes each connection this long after an answer (a short keep-alive timeout). */
async function startCountingServer(closeIdleAfterMs?: number): Promise<CountingServer> {
  const connections = new Tally();
  const server: Server = createServer((request, response) => {
    response.end('hello');
    if (closeIdleAfterMs !== undefined) setTimeout(() => request.socket.end(), closeIdleAfterMs);
  });
  server.on('connection', () => connections.add());
  const listening = await listenOnLoopback(server);
  return {
    ...listening,
    takeConnections: () => connections.take(),
  };
}

interface Measured {
  /** Requests sent in the measured window, and its length. */
  scheduled: number;
  windowMs: number;
  answered: number;
  p50Us: number;
  /** Connections the server accepted for the run. */
  connections: number;
  shown: string;
}

async function measure(engine: Engine, server: CountingServer, think: ThinkTimeInput | undefined, request: Partial<LoadAgentConfig['request']> = {}): Promise<Measured> {
  server.takeConnections();
  const config: LoadAgentConfig = {
    role: 'load',
    target: { protocol: 'http', hostname: '127.0.0.1', port: server.port },
    request: { method: 'GET', path: '/', headers: {}, timeoutMs: 5000, ...request },
    load: { model: 'closed', connections: CONNECTIONS, pipelining: 1, durationS: DURATION_S, ...(think ? { thinkTime: ThinkTime.parse(think) } : {}) },
    warmupS: 0,
    capS: 30,
  };
  const run = await runAgent(engine.configure(config));
  assert.equal(endOf(run)?.reason, 'completed', run.stderr);
  const books = assertBooks(run);
  const lines = samplesOf(run).filter((line) => line.phase !== 'warmup');
  const p50Us = latencyStats(mergeEncodedHistograms(lines.map((line) => line.histogram))).p50Us ?? 0;
  const connections = server.takeConnections();
  const shown = `${JSON.stringify(think ?? 'no think time')}: ${books.scheduled} sent in ${books.windowMs} ms, ${books.answered} answered, p50 ${p50Us} µs, ${connections} connections`;
  return { scheduled: books.scheduled, windowMs: books.windowMs, answered: books.answered, p50Us, connections, shown };
}

/** The most a connection can send in the window with pauses of at least `pauseMs` before each request. */
function mostSent(measured: Measured, pauseMs: number): number {
  return CONNECTIONS * (Math.floor(measured.windowMs / pauseMs) + 1);
}

describeEachEngine('think time', (engine) => {
  let server: CountingServer;
  before(async () => {
    server = await startCountingServer();
  });
  after(() => server.close());

  test('N connections with a pause T send at most N per T, fewer with 2T, and the pause is in no latency', async (t) => {
    const none = await measure(engine, server, undefined);
    const once = await measure(engine, server, { kind: 'fixed', ms: PAUSE_MS });
    const twice = await measure(engine, server, { kind: 'fixed', ms: 2 * PAUSE_MS });
    const shown = [none, once, twice].map((measured) => measured.shown).join('; ');
    t.diagnostic(shown);
    assert.ok(once.answered > 0 && twice.answered > 0, shown);
    assert.ok(once.scheduled < none.scheduled, `a pause sends less than none: ${shown}`);
    assert.ok(twice.scheduled < once.scheduled, `a pause of 2T sends less than one of T: ${shown}`);
    assert.ok(once.scheduled <= mostSent(once, PAUSE_MS), `at most N per T: ${shown}`);
    assert.ok(twice.scheduled <= mostSent(twice, 2 * PAUSE_MS), `at most N per 2T: ${shown}`);
    // A latency that held the pause would be at least T; a typical answer on loopback is far shorter.
    assert.ok(once.p50Us < PAUSE_MS * 1000, `the pause is not in the latency: ${shown}`);
    assert.ok(twice.p50Us < PAUSE_MS * 1000, `the pause is not in the latency: ${shown}`);
    // Kept alive through the pauses: no connection was opened again.
    assert.equal(once.connections, CONNECTIONS, shown);
    assert.equal(twice.connections, CONNECTIONS, shown);
  });

  test('random pauses of mean T send more than fixed pauses of 2T (siege -d, Gatling pause(min, max))', async (t) => {
    const random = await measure(engine, server, { kind: 'uniform', maxMs: 2 * PAUSE_MS });
    const fixed = await measure(engine, server, { kind: 'fixed', ms: 2 * PAUSE_MS });
    const shown = `${random.shown}; ${fixed.shown}`;
    t.diagnostic(shown);
    assert.ok(random.scheduled > fixed.scheduled, shown);
    assert.ok(random.p50Us < PAUSE_MS * 1000, shown);
    // siege's whole units: every pause is 0 or 2T, half the time each, so more are sent than with 2T every time.
    const rounded = await measure(engine, server, { kind: 'uniform', maxMs: 2 * PAUSE_MS, roundToMs: 2 * PAUSE_MS });
    t.diagnostic(rounded.shown);
    assert.ok(rounded.scheduled > fixed.scheduled, `${rounded.shown}; ${fixed.shown}`);
  });

  test('a server that closes idle connections during the pauses: nothing fails, each next request waits its pause on a new connection', async () => {
    const closing = await startCountingServer(10);
    try {
      const config: LoadAgentConfig = {
        role: 'load',
        target: { protocol: 'http', hostname: '127.0.0.1', port: closing.port },
        request: { method: 'GET', path: '/', headers: {}, timeoutMs: 5000 },
        load: { model: 'closed', connections: 2, pipelining: 1, requests: 20, thinkTime: ThinkTime.parse({ kind: 'fixed', ms: PAUSE_MS }) },
        warmupS: 0,
        capS: 30,
      };
      const began = Date.now();
      const run = await runAgent(engine.configure(config));
      const tookMs = Date.now() - began;
      assert.equal(endOf(run)?.reason, 'completed', run.stderr);
      const books = assertBooks(run);
      const connections = closing.takeConnections();
      const shown = `${books.answered} answered, errors ${JSON.stringify(books.errors)}, ${connections} connections, ${tookMs} ms`;
      assert.equal(books.answered, 20, shown);
      assert.equal(Object.values(books.errors).reduce((sum, count) => sum + count, 0), 0, shown);
      assert.ok(connections > 2, `the idle connections were replaced: ${shown}`);
      // Each connection paused before each of its 10 requests, a replacement's included.
      assert.ok(tookMs >= 10 * PAUSE_MS, shown);
    } finally {
      await closing.close();
    }
  });

  test('a connection per request (HTTP/1.0) opens each after its pause', async () => {
    const measured = await measure(engine, server, { kind: 'fixed', ms: PAUSE_MS }, { httpVersion: '1.0' });
    assert.ok(measured.answered > 0, measured.shown);
    assert.ok(measured.scheduled <= mostSent(measured, PAUSE_MS), measured.shown);
    assert.ok(measured.connections >= measured.answered, `a connection per request: ${measured.shown}`);
    assert.ok(measured.p50Us < PAUSE_MS * 1000, `neither pause nor wait for the next connection is in the latency: ${measured.shown}`);
  });
});
