// Web mode's WebSocket against the real server, real services and a real SQLite file: only the app's
// own origin with a session cookie upgrades; calls, events and refusals cross it, and one bad socket
// leaves the others working.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type AppInfo, type LogLine } from '../../app/contract.ts';
import { type Host } from '../../app/hosts/hosts.ts';
import { SESSION_COOKIE } from '../../app/common/wire.ts';
import { useWebServer, MiB, SUITE_TIMEOUT_MS, server, cookie, storedHosts, newHost, within, openSocket, openGoodSocket } from '../../tests/support/web-test-server.ts';

useWebServer();

describe('WebSocket', { timeout: SUITE_TIMEOUT_MS }, () => {
  test('a foreign or missing Origin is refused', async () => {
    for (const origin of [
      'http://evil.example',
      `http://evil.example:${server.port}`,
      `http://127.0.0.1:${server.port + 1}`,
      `https://127.0.0.1:${server.port}`,
      `http://127.0.0.1.evil.com:${server.port}`,
      'null',
    ]) {
      const opened = await openSocket({ origin, cookie });
      assert.equal(opened.ok, false, origin);
      if (!opened.ok) assert.equal(opened.status, 403, origin);
    }
    const noOrigin = await openSocket({ cookie });
    assert.equal(noOrigin.ok, false);
    if (!noOrigin.ok) assert.equal(noOrigin.status, 403);
  });

  test('an upgrade without the cookie, or with a foreign Host, is refused', async () => {
    const noCookie = await openSocket({ origin: server.origin });
    assert.deepEqual(noCookie, { ok: false, status: 401 });
    const badCookie = await openSocket({ origin: server.origin, cookie: `${SESSION_COOKIE}=${'0'.repeat(64)}` });
    assert.deepEqual(badCookie, { ok: false, status: 401 });
    const badHost = await openSocket({ origin: server.origin, cookie, host: 'evil.example' });
    assert.deepEqual(badHost, { ok: false, status: 403 });
    const badPath = await openSocket({ origin: server.origin, cookie, path: '/api/other' });
    assert.deepEqual(badPath, { ok: false, status: 404 });
  });

  test('localhost origin is accepted like 127.0.0.1', async () => {
    const opened = await openSocket({ origin: `http://localhost:${server.port}`, cookie });
    assert.ok(opened.ok);
    if (opened.ok) opened.socket.ws.close();
  });

  test('calls round-trip and subscribed log lines arrive', async () => {
    const socket = await openGoodSocket();
    socket.ws.send(JSON.stringify({ type: 'subscribe', event: 'log' }));
    const host = newHost({ name: 'added over ws' });
    const added = await socket.call(1, 'hosts.add', host);
    assert.equal(added.ok, true, JSON.stringify(added));
    const addedHost = added.result as Host;
    assert.equal(addedHost.name, 'added over ws');
    assert.equal(addedHost.address, host.address);

    const listed = await socket.call(2, 'hosts.list', {});
    assert.equal(listed.ok, true);
    assert.ok((listed.result as Host[]).some((stored) => stored.id === addedHost.id && stored.name === 'added over ws'));

    const logged = await socket.next((message) => message.type === 'event');
    assert.equal(logged.event, 'log');
    const line = logged.payload as LogLine;
    assert.equal(line.level, 'info');
    assert.equal(line.source, 'hosts');
    assert.match(line.message, /added over ws/);
    assert.ok(!Number.isNaN(Date.parse(line.at)));

    // Unsubscribed: the next change produces no event on this socket (it would precede the result).
    socket.ws.send(JSON.stringify({ type: 'unsubscribe', event: 'log' }));
    const removed = await socket.call(3, 'hosts.remove', { id: addedHost.id });
    assert.deepEqual(removed.result, { removed: true });
    assert.deepEqual(
      socket.received.filter((message) => message.type === 'event'),
      [],
    );
    socket.ws.close();
  });

  test('errors come back as results with code and message', async () => {
    const socket = await openGoodSocket();
    const invalid = await socket.call(10, 'hosts.add', newHost({ port: 0 }));
    assert.equal(invalid.ok, false);
    assert.equal(invalid.error?.code, 'invalid_args');
    assert.match(invalid.error?.message ?? '', /^port: /);
    const unknown = await socket.call(11, 'hosts.drop', {});
    assert.equal(unknown.error?.code, 'unknown_request');
    const inherited = await socket.call(12, 'constructor', {});
    assert.equal(inherited.error?.code, 'unknown_request');

    socket.ws.send(JSON.stringify({ type: 'bogus', id: 13 }));
    const bogus = await socket.next((message) => message.id === 13);
    assert.equal(bogus.error?.code, 'unknown_request');
    socket.ws.close();
  });

  test('__proto__ in arguments is refused and stores nothing', async () => {
    const before = await storedHosts();
    const socket = await openGoodSocket();
    socket.ws.send(`{"type":"call","id":20,"name":"hosts.add","args":{"__proto__":{"polluted":true},${JSON.stringify(newHost()).slice(1)}}`);
    const reply = await socket.next((message) => message.type === 'result');
    assert.equal(reply.ok, false);
    assert.equal(reply.error?.code, 'invalid_args');
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.deepEqual(await storedHosts(), before);
    socket.ws.close();
  });

  test('malformed JSON gets an error reply and the socket stays usable', async () => {
    const socket = await openGoodSocket();
    socket.ws.send('{"type":"call","id":30,');
    const reply = await socket.next();
    assert.equal(reply.type, 'result');
    assert.equal(reply.id, null);
    assert.equal(reply.ok, false);
    assert.equal(reply.error?.code, 'invalid_args');
    assert.equal(socket.ws.readyState, WebSocket.OPEN);
    const info = await socket.call(31, 'app.info', {});
    assert.equal(info.ok, true);
    assert.equal((info.result as AppInfo).transport, 'web');
    // Binary frames are refused the same way.
    socket.ws.send(Buffer.from([1, 2, 3]));
    assert.equal((await socket.next()).error?.code, 'invalid_args');
    assert.equal((await socket.call(32, 'hosts.list', {})).ok, true);
    socket.ws.close();
  });

  test('a message over 1 MiB closes that socket with 1009; others keep working and nothing is stored', async () => {
    const before = await storedHosts();
    const victim = await openGoodSocket();
    const bystander = await openGoodSocket();
    const payload = JSON.stringify({ type: 'call', id: 40, name: 'hosts.add', args: newHost({ name: 'oversized' }), padding: 'x'.repeat(MiB) });
    assert.ok(Buffer.byteLength(payload) > MiB);
    victim.ws.send(payload);
    const closed = await within(victim.closed, 3000, 'the oversized socket was not closed');
    assert.equal(closed.code, 1009);
    assert.equal(victim.received.filter((message) => message.id === 40).length, 0);

    const listed = await bystander.call(41, 'hosts.list', {});
    assert.equal(listed.ok, true);
    assert.deepEqual(listed.result, before);
    assert.deepEqual(await storedHosts(), before);

    // A fresh connection works as well.
    const fresh = await openGoodSocket();
    assert.equal((await fresh.call(42, 'hosts.list', {})).ok, true);
    fresh.ws.close();
    bystander.ws.close();
  });
});
