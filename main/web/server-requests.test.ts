// Web mode's HTTP requests against the real server, real services and a real SQLite file: /api/call
// (JSON only, bounded, validated, errors without stacks), static files kept inside their folder, and
// malformed request targets refused with a warn line.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { type Host } from '../../app/hosts/hosts.ts';
import { useWebServer, MiB, SUITE_TIMEOUT_MS, SECRET, root, services, server, cookie, warnings, raw, call, storedHosts, newHost, rawExchange, statusOf, openGoodSocket } from '../../tests/support/web-test-server.ts';

useWebServer();

describe('POST /api/call', { timeout: SUITE_TIMEOUT_MS }, () => {
  test('a valid call stores and answers', async () => {
    const host = newHost({ name: 'stored via http' });
    const added = await call('hosts.add', host);
    assert.equal(added.status, 200);
    const addedHost = added.body.result as Host;
    assert.equal(addedHost.name, 'stored via http');
    assert.ok(Number.isInteger(addedHost.id));
    assert.ok((await storedHosts()).some((stored) => stored.id === addedHost.id));
    const listed = await call('hosts.list', {});
    assert.ok((listed.body.result as Host[]).some((stored) => stored.name === 'stored via http'));
    // Charset parameter on the JSON type is fine.
    const withCharset = await call('hosts.list', {}, { 'content-type': 'application/json; charset=utf-8' });
    assert.equal(withCharset.status, 200);
    await call('hosts.remove', { id: addedHost.id });
  });

  test('a non-JSON content type is 415 and stores nothing', async () => {
    const before = await storedHosts();
    for (const type of [
      'text/plain',
      'text/plain;charset=UTF-8',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/jsonp',
      'application/json-patch+json',
      'text/json',
    ]) {
      const response = await fetch(`${server.origin}/api/call`, {
        method: 'POST',
        headers: { 'content-type': type, cookie },
        body: JSON.stringify({ name: 'hosts.add', args: newHost() }),
      });
      assert.equal(response.status, 415, type);
      await response.arrayBuffer();
    }
    const untyped = await raw({
      method: 'POST',
      path: '/api/call',
      headers: { cookie },
      body: JSON.stringify({ name: 'hosts.add', args: newHost() }),
    });
    assert.equal(untyped.status, 415);
    assert.deepEqual(await storedHosts(), before);
  });

  test('other state-changing requests need JSON too', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const response = await raw({ method, path: '/', headers: { cookie, 'content-type': 'text/plain' }, body: 'x' });
      assert.equal(response.status, 415, method);
    }
    const getCall = await fetch(`${server.origin}/api/call`, { headers: { cookie } });
    assert.equal(getCall.status, 405);
  });

  test('a payload over 1 MiB is 413 and stores nothing', async () => {
    const before = await storedHosts();
    const host = newHost({ name: 'too big' });
    const envelope = (padding: string) => JSON.stringify({ name: 'hosts.add', args: host, padding });
    const overhead = Buffer.byteLength(envelope(''));

    for (const body of [envelope('x'.repeat(MiB - overhead + 1)), envelope('€'.repeat(Math.ceil(MiB / 3))), envelope('x'.repeat(3 * MiB))]) {
      assert.ok(Buffer.byteLength(body) > MiB);
      const response = await raw({ method: 'POST', path: '/api/call', headers: { cookie, 'content-type': 'application/json' }, body }).catch(
        (error: NodeJS.ErrnoException) => ({ status: -1, headers: {}, body: String(error.code) }),
      );
      assert.equal(response.status, 413, response.body);
      assert.equal(JSON.parse(response.body).error.code, 'too_large');
    }
    assert.deepEqual(await storedHosts(), before);

    // Exactly at the cap it is accepted, which proves the refusal above was the size alone.
    const fits = envelope('x'.repeat(MiB - overhead));
    assert.equal(Buffer.byteLength(fits), MiB);
    const accepted = await raw({ method: 'POST', path: '/api/call', headers: { cookie, 'content-type': 'application/json' }, body: fits });
    assert.equal(accepted.status, 200, accepted.body);
    const stored = JSON.parse(accepted.body).result as Host;
    assert.equal(stored.name, 'too big');
    services.hosts.remove(stored.id);
  });

  test('invalid arguments are 400 invalid_args naming the field', async () => {
    const before = await storedHosts();
    const response = await call('hosts.add', newHost({ port: 70000 }));
    assert.equal(response.status, 400);
    assert.equal(response.body.error.code, 'invalid_args');
    assert.match(response.body.error.message, /^port: /);
    assert.deepEqual(Object.keys(response.body), ['error']);
    assert.deepEqual(Object.keys(response.body.error).sort(), ['code', 'message']);

    const address = await call('hosts.add', newHost({ address: 'evil host\nname' }));
    assert.equal(address.status, 400);
    assert.match(address.body.error.message, /^address: /);

    const nested = await call('hosts.update', { id: 1, host: newHost({ user: '' }) });
    assert.match(nested.body.error.message, /^host\.user: /);
    assert.deepEqual(await storedHosts(), before);
  });

  test('malformed JSON is invalid_args', async () => {
    const response = await raw({ method: 'POST', path: '/api/call', headers: { cookie, 'content-type': 'application/json' }, body: '{"name":"hosts.add",' });
    assert.equal(response.status, 400);
    assert.equal(JSON.parse(response.body).error.code, 'invalid_args');
  });

  test('unknown requests are refused as unknown_request', async () => {
    for (const name of ['hosts.drop', '__proto__', 'constructor', 'toString', '', 42, null]) {
      const response = await call(name, {});
      assert.equal(response.body.error.code, 'unknown_request', String(name));
      assert.equal(response.status, 404);
    }
    const nameless = await raw({ method: 'POST', path: '/api/call', headers: { cookie, 'content-type': 'application/json' }, body: '[1,2]' });
    assert.equal(JSON.parse(nameless.body).error.code, 'unknown_request');
  });

  test('__proto__, constructor and prototype keys are refused without harm', async () => {
    const before = await storedHosts();
    const bodies = [
      `{"name":"hosts.add","args":{"__proto__":{"polluted":true},${JSON.stringify(newHost()).slice(1)}}`,
      `{"name":"hosts.add","args":{${JSON.stringify(newHost()).slice(1, -1)},"__proto__":{"polluted":true,"isAdmin":true}}}`,
      `{"name":"hosts.update","args":{"id":1,"host":{"constructor":{"prototype":{"polluted":true}},${JSON.stringify(newHost()).slice(1)}}}`,
      `{"__proto__":{"polluted":true},"name":"hosts.add","args":${JSON.stringify(newHost())}}`,
    ];
    for (const body of bodies) {
      const response = await raw({ method: 'POST', path: '/api/call', headers: { cookie, 'content-type': 'application/json' }, body });
      assert.equal(response.status, 400, body);
      const error = JSON.parse(response.body).error;
      assert.equal(error.code, 'invalid_args');
      assert.match(error.message, /forbidden key/);
    }
    assert.deepEqual(await storedHosts(), before);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(({} as Record<string, unknown>).isAdmin, undefined);
    assert.equal(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted'), false);
  });

  test('errors cross as { code, message } without stacks', async () => {
    const missing = await call('hosts.remove', { id: 987654 });
    assert.equal(missing.status, 404);
    assert.deepEqual(Object.keys(missing.body.error).sort(), ['code', 'message']);
    assert.equal(missing.body.error.code, 'not_found');
    assert.ok(!/at .*\.ts:\d+/.test(missing.body.error.message));
  });
});

describe('static files', { timeout: SUITE_TIMEOUT_MS }, () => {
  test('serves files from the static dir', async () => {
    const asset = await fetch(`${server.origin}/assets/app.js`, { headers: { cookie } });
    assert.equal(asset.status, 200);
    assert.match(asset.headers.get('content-type') ?? '', /javascript/);
    assert.equal(await asset.text(), 'console.log("app");');
    const missing = await fetch(`${server.origin}/assets/none.js`, { headers: { cookie } });
    assert.equal(missing.status, 404);
    await missing.arrayBuffer();
  });

  test('path traversal does not escape the static dir: 404, and no malformed-request warning', async () => {
    const warnedBefore = warnings.length;
    for (const path of [
      '/../secret.txt',
      '/../package.json',
      '/%2e%2e/secret.txt',
      '/%2e%2e/package.json',
      '/..%2fsecret.txt',
      '/%2e%2e%2fsecret.txt',
      '/%2e%2e%2f%2e%2e%2fsecret.txt',
      '/assets/../../secret.txt',
      '/assets/%2e%2e/%2e%2e/secret.txt',
      '/assets%2f..%2f..%2fsecret.txt',
      '/..%5csecret.txt',
      '/%2fsecret.txt',
      `/${encodeURIComponent(join(root, 'secret.txt'))}`,
    ]) {
      // Raw bytes: node:http would already resolve the dots of a plain `/../` itself.
      const answer = await rawExchange(Buffer.from(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nCookie: ${cookie}\r\nConnection: close\r\n\r\n`));
      assert.equal(statusOf(answer), 404, `${path}: ${answer.split('\r\n')[0]}`);
      assert.ok(!answer.includes(SECRET), `${path} leaked the secret`);
    }
    assert.deepEqual(warnings.slice(warnedBefore), []);
  });
});

describe('malformed request targets', { timeout: SUITE_TIMEOUT_MS }, () => {
  const host = () => `127.0.0.1:${server.port}`;
  const LONG = 'a'.repeat(5000); // past web mode's own limit, within node:http's header size
  const HUGE = 'a'.repeat(20_000); // past node:http's header size: refused by its parser

  /** Malformed targets on a route's path (static, /api/call, the WebSocket path). */
  const onRoute = (route: string): Buffer[] =>
    [`${route}/%`, `${route}/%zz`, `${route}/%E0%A4%A`, `${route}/a%00b`, `${route}/[x]`, `${route}/${LONG}`, `${route}?${LONG}`, `${route}/${HUGE}`]
      .map((target) => Buffer.from(target, 'latin1'))
      .concat([Buffer.from(`${route}/a\0b`, 'latin1'), Buffer.from(`${route}/\x01`, 'latin1'), Buffer.from(`${route}/é`, 'utf8'), Buffer.from(`${route}/\xff`, 'latin1')]);
  /** Targets malformed whatever the route. */
  const anywhere = (): Buffer[] =>
    ['//[', '//[::1', '*', '', `http://${host()}/`, `http://${host()}/api/call`, `http://evil.example/api/ws`, host(), 'index.html', '/#x'].map((target) => Buffer.from(target, 'latin1'));
  const targets = () => [...onRoute(''), ...onRoute('/api/call'), ...onRoute('/api/ws'), ...anywhere()];

  /** The request around a target, as a browser with a valid session would send it. */
  const requests: Record<string, (target: Buffer) => Buffer> = {
    GET: (target) => Buffer.concat([Buffer.from('GET '), target, Buffer.from(` HTTP/1.1\r\nHost: ${host()}\r\nCookie: ${cookie}\r\nConnection: close\r\n\r\n`)]),
    POST: (target) =>
      Buffer.concat([
        Buffer.from('POST '),
        target,
        Buffer.from(` HTTP/1.1\r\nHost: ${host()}\r\nCookie: ${cookie}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`),
      ]),
    upgrade: (target) =>
      Buffer.concat([
        Buffer.from('GET '),
        target,
        Buffer.from(
          ` HTTP/1.1\r\nHost: ${host()}\r\nOrigin: ${server.origin}\r\nCookie: ${cookie}\r\n` +
            'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
        ),
      ]),
  };

  for (const [kind, build] of Object.entries(requests)) {
    test(`${kind}: every malformed target is 400 with one warn line naming the method and the target, never a 500`, async () => {
      for (const target of targets()) {
        const shown = JSON.stringify(target.subarray(0, 40).toString('latin1'));
        const warnedBefore = warnings.length;
        const answer = await rawExchange(build(target));
        assert.equal(statusOf(answer), 400, `${kind} ${shown}: ${answer.split('\r\n')[0]}`);
        assert.ok(!answer.includes('served from the static dir'), `${kind} ${shown} was served`);
        const lines = warnings.slice(warnedBefore);
        assert.equal(lines.length, 1, `${kind} ${shown}: warn lines ${JSON.stringify(lines)}`);
        const line = lines[0]!;
        assert.match(line, kind === 'POST' ? /\bPOST\b/ : /\bGET\b/, line);
        assert.match(line, /^[\x20-\x7e]+$/, `${kind} ${shown}: the line holds raw control or non-ASCII characters`);
        assert.ok(line.length <= 300, `${kind} ${shown}: a line of ${line.length} characters`);
        const printable = target.subarray(0, 20).toString('latin1');
        if (/^[\x21-\x7e]+$/.test(printable)) assert.ok(line.includes(printable), `${kind} ${shown}: the line does not name the target: ${line}`);
      }
    });
  }

  test('CONNECT and a garbled request line are 400 with a warn line too', async () => {
    for (const request of [`CONNECT ${host()} HTTP/1.1\r\nHost: ${host()}\r\n\r\n`, 'GARBAGE\r\n\r\n', `GET / HTTP/9.9\r\nHost: ${host()}\r\n\r\n`]) {
      const warnedBefore = warnings.length;
      const answer = await rawExchange(Buffer.from(request));
      assert.equal(statusOf(answer), 400, `${JSON.stringify(request)}: ${answer.split('\r\n')[0]}`);
      assert.equal(warnings.length, warnedBefore + 1, JSON.stringify(request));
    }
  });

  test('after all of that the server still serves, and well-formed odd targets are not refused', async () => {
    assert.equal((await fetch(`${server.origin}/`, { headers: { cookie } })).status, 200);
    const warnedBefore = warnings.length;
    for (const [path, status] of [
      ['/assets/a%20b.js', 404],
      ['/assets/%C3%A9.js', 404],
      ["/assets/x;y=1,z!$&'()*+~@:.js", 404],
      ['/index.html?x=[1]&y={2}|3', 200],
      ['//index.html', 200],
    ] as const) {
      const answer = await rawExchange(Buffer.from(`GET ${path} HTTP/1.1\r\nHost: ${host()}\r\nCookie: ${cookie}\r\nConnection: close\r\n\r\n`));
      assert.equal(statusOf(answer), status, path);
    }
    assert.deepEqual(warnings.slice(warnedBefore), []);
    const socket = await openGoodSocket();
    assert.equal((await socket.call(1, 'hosts.list', {})).ok, true);
    socket.ws.close();
  });
});
