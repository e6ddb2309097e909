// The agent's HTTP/1.1 client against raw answers on loopback: Content-Length, chunked (with
// extensions and trailers), HEAD, 204, interim 1xx, read-until-close, `Connection: close`, answers
// cut at every byte, pipelined answers in one packet, and a FIN with requests on the wire.

import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { after, describe, test } from 'node:test';
import type { ErrorKind } from '../app/runs/run-summary.ts';
import { encodeRequest, HttpConnection, type ConnectionListener } from './http-client.ts';

interface Outcome {
  answers: Array<{ status: number; bytes: number; tag: number }>;
  failures: ErrorKind[];
  closed: Promise<void>;
}

const servers: Server[] = [];
const connections: HttpConnection[] = [];
after(() => {
  connections.forEach((connection) => connection.drop());
  servers.forEach((server) => server.close());
});

/** A server that writes `reply` (in pieces of `pieceBytes`, if given) once it has read `requests` requests, then does `then`. */
async function rawServer(reply: string, requests: number, then: 'keep' | 'end' = 'keep', pieceBytes = 0): Promise<number> {
  const server = createServer((socket: Socket) => {
    let seen = 0;
    socket.on('data', (chunk) => {
      seen += chunk.toString('latin1').split('\r\n\r\n').length - 1;
      if (seen < requests) return;
      const bytes = Buffer.from(reply, 'latin1');
      if (pieceBytes > 0) for (let at = 0; at < bytes.length; at += pieceBytes) socket.write(bytes.subarray(at, at + pieceBytes));
      else socket.write(bytes);
      if (then === 'end') socket.end();
    });
    socket.on('error', () => undefined);
  });
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return (server.address() as AddressInfo).port;
}

/** Sends `count` requests on one connection; resolves once all are settled. */
function exchange(port: number, count: number, method: 'GET' | 'HEAD' = 'GET'): Promise<Outcome> & { connection: HttpConnection; closed: Promise<void> } {
  let settle!: () => void;
  let closedDone!: () => void;
  const outcome: Outcome = { answers: [], failures: [], closed: new Promise((done) => (closedDone = done)) };
  const finished = new Promise<Outcome>((done) => (settle = () => done(outcome)));
  const check = () => outcome.answers.length + outcome.failures.length === count && settle();
  const listener: ConnectionListener = {
    connected: () => undefined,
    answered: (_connection, status, bytes, _from, tag) => {
      outcome.answers.push({ status, bytes, tag });
      check();
    },
    failed: (_connection, kind) => {
      outcome.failures.push(kind);
      check();
    },
    closed: () => closedDone(),
  };
  const target = { protocol: 'http' as const, hostname: '127.0.0.1', port };
  const connection = new HttpConnection(encodeRequest(target, { method, path: '/x', headers: {}, timeoutMs: 1000 }), listener);
  connections.push(connection);
  for (let i = 0; i < count; i++) connection.send(0, i % 2);
  return Object.assign(finished, { connection, closed: outcome.closed });
}

const OK = 'HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello';
const CHUNKED = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nX-Trailer: yes\r\n\r\n';

describe('http client', () => {
  test('Content-Length and chunked answers, pipelined in one packet, in order with their tags', async () => {
    const port = await rawServer(OK + CHUNKED + OK, 3);
    const outcome = await exchange(port, 3);
    assert.deepEqual(outcome.answers, [
      { status: 200, bytes: OK.length, tag: 0 },
      { status: 200, bytes: CHUNKED.length, tag: 1 },
      { status: 200, bytes: OK.length, tag: 0 },
    ]);
  });

  test('the same answers cut after every byte', async () => {
    const port = await rawServer(CHUNKED + OK + 'HTTP/1.1 100 Continue\r\n\r\n' + OK, 3, 'keep', 1);
    const outcome = await exchange(port, 3);
    assert.deepEqual(
      outcome.answers.map((answer) => answer.status),
      [200, 200, 200],
    );
    assert.equal(outcome.answers[0]!.bytes, CHUNKED.length);
  });

  test('HEAD and 204 answers have no body even with a Content-Length', async () => {
    const head = 'HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n';
    const headPort = await rawServer(head + head, 2);
    assert.deepEqual((await exchange(headPort, 2, 'HEAD')).answers.map((answer) => answer.bytes), [head.length, head.length]);
    const noContent = 'HTTP/1.1 204 No Content\r\n\r\n';
    const port = await rawServer(noContent + OK, 2);
    assert.deepEqual((await exchange(port, 2)).answers.map((answer) => answer.status), [204, 200]);
  });

  test('an answer without a length ends with the connection', async () => {
    const port = await rawServer('HTTP/1.1 200 OK\r\n\r\nuntil the end', 1, 'end');
    const outcome = await exchange(port, 1);
    assert.deepEqual(outcome.answers.map((answer) => answer.bytes), ['HTTP/1.1 200 OK\r\n\r\nuntil the end'.length]);
    await outcome.closed;
  });

  test('Connection: close answers the first and fails the requests pipelined behind it as closed', async () => {
    const port = await rawServer('HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 5\r\n\r\nhello', 3);
    const outcome = await exchange(port, 3);
    assert.equal(outcome.answers.length, 1);
    assert.deepEqual(outcome.failures, ['closed', 'closed']);
    await outcome.closed;
  });

  test('a FIN with requests on the wire fails them as closed; a malformed answer as other', async () => {
    const port = await rawServer(OK, 2, 'end');
    const outcome = await exchange(port, 3);
    assert.equal(outcome.answers.length, 1);
    assert.deepEqual(outcome.failures, ['closed', 'closed']);
    const garbage = await rawServer('SSH-2.0-OpenSSH\r\n\r\n', 1);
    assert.deepEqual((await exchange(garbage, 1)).failures, ['other']);
  });

  test('a refused connect fails the request as refused; abort settles as timeout, drop settles nothing', async () => {
    const port = await rawServer(OK, 1);
    servers.at(-1)!.close();
    await once(servers.at(-1)!, 'close');
    assert.deepEqual((await exchange(port, 1)).failures, ['refused']);
    const silent = await rawServer('', 99);
    const aborted = exchange(silent, 2);
    aborted.connection.abort('timeout');
    assert.deepEqual((await aborted).failures, ['timeout', 'timeout']);
    const dropped = exchange(silent, 1);
    dropped.connection.drop();
    await dropped.closed;
    assert.equal(dropped.connection.outstanding, 0);
  });
});
