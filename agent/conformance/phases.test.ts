// The request phases on both engines against a server that accepts late: a listener with a backlog
// of one that holds each accept a while, so connects beyond its queue wait for a SYN to be sent
// again. With a connection per request (`Connection: close`, HTTP/1.0) the connect is measured and
// the headline latency includes it; with keep-alive the connect is shown apart and the headline
// is what it was. HTTP/1.0 sends its request line and a connection per request. Relations only.

import assert from 'node:assert/strict';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer } from 'node:net';
import { after, before, test } from 'node:test';
import type { LoadAgentConfig } from '../../app/runs/agent-protocol.ts';
import { latencyStats, mergeEncodedHistograms, type LatencyStats } from '../../app/common/hdr.ts';
import { assertBooks, endOf, listenOnLoopback, runAgent, samplesOf, Tally, type AgentRun } from '../agent-harness.ts';
import { describeEachEngine } from './engines.ts';

/** How long the server holds each accept: connects beyond its queue of two wait for a resent SYN. */
const ACCEPT_HOLD_MS = 15;

interface LateServer {
  port: number;
  requests(): number;
  /** The most requests one connection carried since the last call. */
  mostOnOneConnection(): number;
  close(): Promise<void>;
}

async function startLateAcceptServer(): Promise<LateServer> {
  let requests = 0;
  const most = new Tally();
  const perSocket = new WeakMap<object, number>();
  const server: HttpServer = createHttpServer((request, response) => {
    requests++;
    const carried = (perSocket.get(request.socket) ?? 0) + 1;
    perSocket.set(request.socket, carried);
    most.raise(carried);
    response.end('hello');
  });
  server.on('connection', () => {
    // The loop is held: nothing more is accepted meanwhile, and the kernel's queue fills.
    const until = performance.now() + ACCEPT_HOLD_MS;
    while (performance.now() < until);
  });
  const listening = await listenOnLoopback(server, 1);
  return {
    ...listening,
    requests: () => requests,
    mostOnOneConnection: () => most.take(),
  };
}

interface RawServer {
  port: number;
  requestLines: string[];
  heads: string[];
  /** The most requests one connection carried. */
  mostOnOneConnection(): number;
  close(): Promise<void>;
}

/** An HTTP/1.0 server of old: reads one request, answers (with or without a length), closes. */
async function startHttp10Server(withLength: boolean): Promise<RawServer> {
  const requestLines: string[] = [];
  const heads: string[] = [];
  let most = 0;
  const server: TcpServer = createTcpServer((socket) => {
    let text = '';
    let answered = false;
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
      most = Math.max(most, text.split('\r\n\r\n').length - 1);
      const end = text.indexOf('\r\n\r\n');
      if (end < 0 || answered) return;
      answered = true;
      heads.push(text.slice(0, end));
      requestLines.push(text.slice(0, text.indexOf('\r\n')));
      socket.end(`HTTP/1.0 200 OK\r\n${withLength ? 'Content-Length: 5\r\n' : ''}\r\nhello`);
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    port: (server.address() as AddressInfo).port,
    requestLines,
    heads,
    mostOnOneConnection: () => most,
    close: () => new Promise((done) => server.close(() => done())),
  };
}

interface RunPhases {
  connect: LatencyStats;
  waiting: LatencyStats;
  processing: LatencyStats;
  total: LatencyStats;
  withConnect: number;
  answered: number;
}

/** The phases of a run's measured lines and drain, added up. */
function phasesOf(run: AgentRun): RunPhases {
  const lines = samplesOf(run).filter((line) => line.phase !== 'warmup');
  const stats = (pick: (line: (typeof lines)[number]) => string | null) => latencyStats(mergeEncodedHistograms(lines.map(pick)));
  return {
    connect: stats((line) => line.phases.connect),
    waiting: stats((line) => line.phases.waiting),
    processing: stats((line) => line.phases.processing),
    total: stats((line) => line.histogram),
    withConnect: lines.reduce((sum, line) => sum + line.phases.withConnect, 0),
    answered: lines.reduce((sum, line) => sum + line.requests, 0),
  };
}

function describe(phases: RunPhases): string {
  const row = (stats: LatencyStats) => `n=${stats.count} p50=${stats.p50Us} max=${stats.maxUs}`;
  return `connect ${row(phases.connect)}; waiting ${row(phases.waiting)}; processing ${row(phases.processing)}; total ${row(phases.total)}; ${phases.withConnect} of ${phases.answered} with their connect`;
}

function config(port: number, request: Partial<LoadAgentConfig['request']>, load: LoadAgentConfig['load']): LoadAgentConfig {
  return {
    role: 'load',
    target: { protocol: 'http', hostname: '127.0.0.1', port },
    request: { method: 'GET', path: '/', headers: {}, timeoutMs: 8000, ...request },
    load,
    warmupS: 0,
    capS: 40,
    // One thread: the threads' split is not what is tested here.
    workers: 1,
  };
}

describeEachEngine('request phases', (engine) => {
  let server: LateServer;
  before(async () => {
    server = await startLateAcceptServer();
  });
  after(() => server.close());

  test('a connection per request (Connection: close): late accepts show as connect time, and the headline includes it', async () => {
    server.mostOnOneConnection();
    const run = await runAgent(engine.configure(config(server.port, { headers: { Connection: 'close' } }, { model: 'closed', connections: 6, pipelining: 1, durationS: 3 })));
    assert.equal(endOf(run)?.reason, 'completed', run.stderr);
    assertBooks(run);
    const phases = phasesOf(run);
    const shown = describe(phases);
    assert.ok(phases.answered > 0, shown);
    assert.equal(server.mostOnOneConnection(), 1, 'one request per connection');
    assert.equal(phases.withConnect, phases.answered, `every answer paid its connect: ${shown}`);
    assert.ok(phases.connect.count >= phases.answered, `a connect for every answer: ${shown}`);
    assert.equal(phases.waiting.count, phases.answered, shown);
    assert.equal(phases.processing.count, phases.answered, shown);
    // The late accepts are visible: the slowest connects took longer than a typical wait for an answer.
    assert.ok(phases.connect.maxUs! > phases.waiting.p50Us!, `connects wait for the accept: ${shown}`);
    // The headline is the total: it holds the connect, so it is never below it, nor below the processing.
    assert.ok(phases.total.p50Us! >= phases.connect.p50Us!, `total p50 ≥ connect p50: ${shown}`);
    assert.ok(phases.total.maxUs! >= phases.connect.maxUs!, `total max ≥ connect max: ${shown}`);
    assert.ok(phases.total.meanUs! >= phases.connect.meanUs!, `total mean ≥ connect mean: ${shown}`);
    assert.ok(phases.total.p50Us! >= phases.processing.p50Us!, `total p50 ≥ processing p50: ${shown}`);
  });

  test('keep-alive against the same server: the connect is shown apart, and the headline is the answers’', async () => {
    const run = await runAgent(engine.configure(config(server.port, {}, { model: 'closed', connections: 4, pipelining: 1, durationS: 2 })));
    assert.equal(endOf(run)?.reason, 'completed', run.stderr);
    assertBooks(run);
    const phases = phasesOf(run);
    const shown = describe(phases);
    assert.ok(phases.connect.count >= 4, `each connection's connect measured: ${shown}`);
    assert.ok(phases.withConnect <= phases.connect.count, `only a connection's first request pays its connect: ${shown}`);
    assert.ok(phases.answered > 10 * phases.withConnect, `most answers reused a connection: ${shown}`);
    // Four connects at once beyond a queue of two: one waits for its SYN to be sent again, yet the
    // headline's median is the answers' own.
    assert.ok(phases.connect.maxUs! > phases.total.p50Us!, `the slowest connect is not in a typical latency: ${shown}`);
    assert.ok(phases.processing.p50Us! <= phases.total.p50Us!, shown);
    assert.equal(phases.waiting.count, phases.answered, shown);
  });

  for (const withLength of [true, false]) {
    test(`HTTP/1.0: the request line says so, no keep-alive is asked, a connection per request (answer ${withLength ? 'with a length' : 'ending at close'})`, async () => {
      const http10 = await startHttp10Server(withLength);
      try {
        const run = await runAgent(engine.configure(config(http10.port, { httpVersion: '1.0' }, { model: 'closed', connections: 2, pipelining: 1, requests: 40 })));
        assert.equal(endOf(run)?.reason, 'completed', run.stderr);
        const books = assertBooks(run);
        assert.equal(books.answered, 40, JSON.stringify(books.errors));
        assert.ok(http10.requestLines.length >= 40);
        for (const line of http10.requestLines) assert.equal(line, 'GET / HTTP/1.0');
        for (const head of http10.heads) assert.doesNotMatch(head, /connection:\s*keep-alive/i);
        assert.equal(http10.mostOnOneConnection(), 1, 'one request per connection');
        const phases = phasesOf(run);
        assert.equal(phases.withConnect, phases.answered, describe(phases));
      } finally {
        await http10.close();
      }
    });
  }
});
