// Answers of every shape HTTP/1.1 allows, end to end through the load agent, once per engine:
// Content-Length and chunked bodies (extensions, trailers), interim 1xx answers, 204 and 304 without
// a body, status classes, large bodies, answers dripped a few bytes at a time, answers that end
// with the connection, `Connection: close`, pipelined requests, a FIN in the middle of an answer,
// and the request itself (method, path, headers, body) as the server receives it. Fixed counts on
// one connection make every figure exact: answers by class, errors by kind, bytes (heads included).

import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, test } from 'node:test';
import type { LoadAgentConfig } from '../../app/runs/agent-protocol.ts';
import { mergeEncodedHistograms } from '../../app/common/hdr.ts';
import { ANSWER_200, assertBooks, endOf, runAgent, samplesOf, startScriptedServer, type AgentRun, type Books, type Script, type ScriptedServer } from '../agent-harness.ts';
import { describeEachEngine, type Engine } from './engines.ts';

const CHUNKED = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nX-Trailer: yes\r\n\r\n';
const INTERIM = 'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n';
const NO_CONTENT = 'HTTP/1.1 204 No Content\r\n\r\n';
/** A 304 repeats the length of the body it does not send. */
const NOT_MODIFIED = 'HTTP/1.1 304 Not Modified\r\nContent-Length: 1000\r\n\r\n';
const NOT_FOUND = 'HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\n\r\nnot found';
const UNAVAILABLE = 'HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n\r\n';
const CLOSE_AFTER = 'HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 5\r\n\r\nhello';
const UNTIL_CLOSE = 'HTTP/1.1 200 OK\r\n\r\nuntil the connection ends';
const MIB = 1024 * 1024;
const LARGE = `HTTP/1.1 200 OK\r\nContent-Length: ${MIB}\r\n\r\n${'x'.repeat(MIB)}`;
const LARGE_CHUNKED = `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n${`10000\r\n${'y'.repeat(0x10000)}\r\n`.repeat(16)}0\r\n\r\n`;

/** Every status class, zero included, as the agent's lines carry them. */
function classes(counts: Partial<Record<'1xx' | '2xx' | '3xx' | '4xx' | '5xx', number>>): Record<string, number> {
  return { '1xx': 0, '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0, ...counts };
}

function sum(run: AgentRun, figure: (line: ReturnType<typeof samplesOf>[number]) => number): number {
  return samplesOf(run).reduce((total, line) => total + figure(line), 0);
}

function statusOf(run: AgentRun): Record<string, number> {
  const status = classes({});
  for (const line of samplesOf(run)) for (const [kind, count] of Object.entries(line.status)) status[kind] = (status[kind] ?? 0) + count;
  return status;
}

describeEachEngine('agent: answers of every shape', (engine: Engine) => {
  const servers: ScriptedServer[] = [];
  after(() => Promise.all(servers.map((server) => server.close())));

  /** Runs `requests` requests against a server following `script`, to completion, its books balanced. */
  const exchange = async (script: Script, load: { requests: number; connections?: number; pipelining?: number }): Promise<{ run: AgentRun; books: Books; server: ScriptedServer }> => {
    const server = await startScriptedServer({ answerAfterMs: 0, ...script });
    servers.push(server);
    const config: LoadAgentConfig = {
      role: 'load',
      target: { protocol: 'http', hostname: '127.0.0.1', port: server.port },
      request: { method: 'GET', path: '/', headers: {}, timeoutMs: 3000 },
      load: { model: 'closed', connections: load.connections ?? 1, pipelining: load.pipelining ?? 1, requests: load.requests },
      warmupS: 0,
      capS: 30,
    };
    const run = await runAgent(engine.configure(config));
    assert.equal(endOf(run)?.reason, 'completed', run.stderr);
    const books = assertBooks(run);
    assert.equal(books.scheduled, load.requests);
    return { run, books, server };
  };

  test('Content-Length and chunked bodies (with extensions and trailers), byte for byte', async () => {
    const { run, books } = await exchange({ answers: [ANSWER_200, CHUNKED] }, { requests: 300 });
    assert.deepEqual(statusOf(run), classes({ '2xx': 300 }));
    assert.equal(sum(run, (line) => line.bytes), 150 * (ANSWER_200.length + CHUNKED.length));
    assert.equal(books.answered, 300);
    assert.equal(mergeEncodedHistograms(samplesOf(run).map((line) => line.histogram)).totalCount, 300);
  });

  test('interim 1xx answers before the final one: one answer, of the final status', async () => {
    const { run } = await exchange({ answers: [INTERIM + ANSWER_200] }, { requests: 200 });
    assert.deepEqual(statusOf(run), classes({ '2xx': 200 }));
    assert.equal(sum(run, (line) => line.bytes), 200 * (INTERIM.length + ANSWER_200.length));
  });

  test('204 and 304 carry no body, whatever length they state', async () => {
    const { run, books } = await exchange({ answers: [NO_CONTENT, NOT_MODIFIED, ANSWER_200] }, { requests: 300 });
    assert.deepEqual(statusOf(run), classes({ '2xx': 200, '3xx': 100 }));
    assert.equal(books.errors.timeout, 0, 'an answer waited for a body that never comes');
    assert.equal(sum(run, (line) => line.bytes), 100 * (NO_CONTENT.length + NOT_MODIFIED.length + ANSWER_200.length));
  });

  test('4xx and 5xx are answers counted by class, not errors', async () => {
    const { run, books } = await exchange({ answers: [ANSWER_200, NOT_FOUND, UNAVAILABLE] }, { requests: 300 });
    assert.deepEqual(statusOf(run), classes({ '2xx': 100, '4xx': 100, '5xx': 100 }));
    assert.equal(books.answered, 300);
    assert.equal(Object.values(books.errors).reduce((total, count) => total + count, 0), 0);
  });

  test('large bodies: 1 MiB by Content-Length and 1 MiB in 64 KiB chunks', async () => {
    const { run } = await exchange({ answers: [LARGE, LARGE_CHUNKED] }, { requests: 40 });
    assert.deepEqual(statusOf(run), classes({ '2xx': 40 }));
    assert.equal(sum(run, (line) => line.bytes), 20 * (LARGE.length + LARGE_CHUNKED.length));
  });

  test('answers dripped three bytes at a time are parsed across reads', async () => {
    const { run } = await exchange({ answers: [CHUNKED, INTERIM + ANSWER_200, NOT_MODIFIED], pieceBytes: 3 }, { requests: 90 });
    assert.deepEqual(statusOf(run), classes({ '2xx': 60, '3xx': 30 }));
    assert.equal(sum(run, (line) => line.bytes), 30 * (CHUNKED.length + INTERIM.length + ANSWER_200.length + NOT_MODIFIED.length));
  });

  test('an answer without a length ends with the connection: answered, and the next request goes on a new one', async () => {
    const { run } = await exchange({ answers: [UNTIL_CLOSE], closeAfterAnswer: true }, { requests: 50 });
    assert.deepEqual(statusOf(run), classes({ '2xx': 50 }));
    assert.equal(sum(run, (line) => line.bytes), 50 * UNTIL_CLOSE.length);
    assert.equal(sum(run, (line) => line.client.newConnections), 50);
  });

  test('Connection: close answers: each request on a connection of its own, none failed', async () => {
    const { run, books } = await exchange({ answers: [CLOSE_AFTER], closeAfterAnswer: true }, { requests: 200, connections: 2 });
    assert.deepEqual(statusOf(run), classes({ '2xx': 200 }));
    assert.equal(Object.values(books.errors).reduce((total, count) => total + count, 0), 0);
    // A connection closed under the last answer may be opened again before the count is known to be reached.
    const opened = sum(run, (line) => line.client.newConnections);
    assert.ok(opened >= 200 && opened <= 202, `${opened} connections opened`);
  });

  test('pipelining: requests leave together, answers are matched in order', async () => {
    const { run, server } = await exchange({ answers: [ANSWER_200, CHUNKED] }, { requests: 3200, pipelining: 16 });
    assert.deepEqual(statusOf(run), classes({ '2xx': 3200 }));
    assert.equal(server.received(), 3200);
    assert.ok(server.mostInOneRead() > 1, `at most ${server.mostInOneRead()} request in one read: not pipelined`);
    assert.equal(sum(run, (line) => line.bytes), 1600 * (ANSWER_200.length + CHUNKED.length));
  });

  test('Connection: close under pipelined requests fails those behind it as closed', async () => {
    const { books } = await exchange({ answers: [CLOSE_AFTER], closeAfterAnswer: true }, { requests: 200, pipelining: 4 });
    const closed = books.errors.closed ?? 0;
    assert.ok(closed > 0 && books.answered >= 50, `${books.answered} answered, ${closed} closed`);
    assert.equal(books.answered + closed, 200);
  });

  test('a FIN in the middle of an answer fails that request as closed, and the load goes on', async () => {
    // Each connection answers 4, cuts the 5th half way, and is replaced.
    const { books } = await exchange({ endEvery: { n: 5, how: 'fin-mid-answer' } }, { requests: 100 });
    assert.equal(books.answered, 80);
    assert.equal(books.errors.closed, 20);
  });

  test('the request goes out as configured: method, path, headers and body', async () => {
    const seen: Array<{ method: string; url: string; headers: IncomingHttpHeaders; body: string }> = [];
    const server = createServer((request, response) => {
      let body = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => (body += chunk));
      request.on('end', () => {
        seen.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
        response.end('ok');
      });
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    try {
      const body = JSON.stringify({ name: 'benchlab', values: [1, 2, 3] });
      const config: LoadAgentConfig = {
        role: 'load',
        target: { protocol: 'http', hostname: '127.0.0.1', port: (server.address() as AddressInfo).port },
        request: { method: 'POST', path: '/items?x=1', headers: { 'content-type': 'application/json', 'x-bench': 'yes' }, body, timeoutMs: 3000 },
        load: { model: 'closed', connections: 2, pipelining: 1, requests: 20 },
        warmupS: 0,
        capS: 30,
      };
      const run = await runAgent(engine.configure(config));
      assert.equal(endOf(run)?.reason, 'completed', run.stderr);
      assert.deepEqual(statusOf(run), classes({ '2xx': 20 }));
      assert.equal(seen.length, 20);
      for (const request of seen) {
        assert.deepEqual([request.method, request.url, request.body], ['POST', '/items?x=1', body]);
        assert.equal(request.headers['content-type'], 'application/json');
        assert.equal(request.headers['x-bench'], 'yes');
        assert.equal(request.headers['content-length'], String(Buffer.byteLength(body)));
        assert.equal(request.headers.host, `127.0.0.1:${(server.address() as AddressInfo).port}`);
      }
    } finally {
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
    }
  });
});
