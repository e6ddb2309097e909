// Web mode's front door against the real server, real services and a real SQLite file: it listens on
// loopback only, allows only its own Host, and lets in only a session cookie swapped for a one-time URL.

import assert from 'node:assert/strict';
import { networkInterfaces } from 'node:os';
import { describe, test } from 'node:test';
import { SESSION_COOKIE } from '../../app/common/wire.ts';
import { startWebServer } from './server.ts';
import { SESSION_LIFETIME_MS } from './web-mode-memory.ts';
import { useWebServer, SUITE_TIMEOUT_MS, INDEX_HTML, staticDir, services, dispatch, server, cookie, warnings, raw, login, storedHosts, newHost, assertCsp, tryConnect, rawExchange, statusOf, openSocket } from '../../tests/support/web-test-server.ts';

useWebServer();

describe('binding', { timeout: SUITE_TIMEOUT_MS }, () => {
  test('listens on 127.0.0.1 only', async () => {
    assert.equal(new URL(server.origin).hostname, '127.0.0.1');
    assert.ok(server.port > 0);
    assert.equal(await tryConnect('127.0.0.1', server.port), 'connected');
    // Another loopback address reaches the same interface: refused unless bound to it or to any address.
    assert.notEqual(await tryConnect('127.0.0.2', server.port), 'connected');
    assert.notEqual(await tryConnect('::1', server.port), 'connected');
    // Nor on this machine's other addresses (link-local IPv6 skipped: some lab bridges drop it, which only costs time).
    const others = Object.values(networkInterfaces())
      .flatMap((addresses) => addresses ?? [])
      .filter((address) => !address.internal && !address.address.toLowerCase().startsWith('fe80:'))
      .map((address) => address.address);
    const outcomes = await Promise.all(others.map((host) => tryConnect(host, server.port)));
    others.forEach((host, index) => assert.notEqual(outcomes[index], 'connected', `reachable on ${host}`));
  });

  test('the printed URL carries a 256-bit token', () => {
    const token = new URL(server.url).searchParams.get('token');
    assert.match(token ?? '', /^[0-9a-f]{64}$/);
  });
});

describe('Host header allowlist', { timeout: SUITE_TIMEOUT_MS }, () => {
  const badHosts = () => [
    'evil.example',
    `evil.example:${server.port}`,
    `127.0.0.1.evil.com:${server.port}`,
    `localhost.evil.com:${server.port}`,
    `localhost:${server.port + 1}`,
    `127.0.0.1:${server.port === 65535 ? 1 : server.port + 1}`,
    '127.0.0.1',
    'localhost',
    `[::1]:${server.port}`,
    `0.0.0.0:${server.port}`,
  ];

  test('a foreign Host gets 403 on every path, even with a valid cookie or token', async () => {
    const token = new URL(server.url).searchParams.get('token')!;
    for (const host of badHosts()) {
      for (const path of ['/', '/index.html', `/?token=${token}`, '/api/call']) {
        const response = await raw({ path, headers: { host, cookie } });
        assert.equal(response.status, 403, `${host} ${path}`);
        assert.equal(response.headers['set-cookie'], undefined);
        assert.ok(!response.body.includes('served from the static dir'));
        assertCsp(response.headers);
      }
      const posted = await raw({
        method: 'POST',
        path: '/api/call',
        headers: { host, cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'hosts.add', args: newHost() }),
      });
      assert.equal(posted.status, 403, host);
    }
    assert.deepEqual(await storedHosts(), []);
  });

  test('a request without a Host header is refused', async () => {
    const response = await raw({ path: '/', headers: { cookie }, setHost: false });
    assert.ok(response.status === 400 || response.status === 403, `status ${response.status}`);
  });

  test('a second Host header after an allowed one is refused with 400, pages and WebSocket upgrades alike', async () => {
    const twice = `Host: 127.0.0.1:${server.port}\r\nHost: evil.example\r\n`;
    for (const path of ['/', '/api/call']) {
      const answer = await rawExchange(Buffer.from(`GET ${path} HTTP/1.1\r\n${twice}Cookie: ${cookie}\r\nConnection: close\r\n\r\n`));
      assert.equal(statusOf(answer), 400, answer);
      assert.match(answer, /Bad Request: more than one Host header/);
    }
    const upgrade = await rawExchange(
      Buffer.from(
        `GET /api/ws HTTP/1.1\r\n${twice}Origin: ${server.origin}\r\nCookie: ${cookie}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
          'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
      ),
    );
    assert.equal(statusOf(upgrade), 400, upgrade);
  });

  test('both allowed Host spellings work', async () => {
    for (const host of [`127.0.0.1:${server.port}`, `localhost:${server.port}`]) {
      const response = await raw({ path: '/', headers: { host, cookie } });
      assert.equal(response.status, 200, host);
      assert.equal(response.body, INDEX_HTML);
    }
  });
});

describe('token and cookie', { timeout: SUITE_TIMEOUT_MS }, () => {
  test('without a cookie: 401 on pages and on /api/call', async () => {
    for (const path of ['/', '/index.html', '/assets/app.js', '/nope']) {
      const response = await fetch(`${server.origin}${path}`, { redirect: 'manual' });
      assert.equal(response.status, 401, path);
      assert.ok(!(await response.text()).includes('served from the static dir'));
      assertCsp(response.headers);
    }
    const apiCall = await fetch(`${server.origin}/api/call`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'hosts.add', args: newHost() }),
    });
    assert.equal(apiCall.status, 401);
    const list = await fetch(`${server.origin}/api/call`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'hosts.list', args: {} }),
    });
    assert.equal(list.status, 401);
    assert.deepEqual(await storedHosts(), []);
  });

  test('a wrong token is 401 and sets no cookie', async () => {
    const token = new URL(server.url).searchParams.get('token')!;
    const flipped = token.slice(0, -1) + (token.endsWith('0') ? '1' : '0');
    for (const wrong of [flipped, token.slice(1), `${token}0`, '', 'x'.repeat(64), token.toUpperCase()]) {
      const response = await fetch(`${server.origin}/?token=${encodeURIComponent(wrong)}`, { redirect: 'manual' });
      assert.equal(response.status, 401, `token ${JSON.stringify(wrong)}`);
      assert.equal(response.headers.get('set-cookie'), null);
    }
  });

  test('a wrong or forged cookie is 401', async () => {
    const token = new URL(server.url).searchParams.get('token')!;
    const value = cookie.split('=')[1]!;
    for (const forged of [
      `${SESSION_COOKIE}=${value.slice(0, -1)}${value.endsWith('a') ? 'b' : 'a'}`,
      `${SESSION_COOKIE}=${token}`, // the URL token is not the cookie
      `${SESSION_COOKIE}=`,
      `other=${value}`,
    ]) {
      const response = await fetch(`${server.origin}/`, { headers: { cookie: forged }, redirect: 'manual' });
      assert.equal(response.status, 401, forged);
    }
  });

  test('the right token is swapped for an HttpOnly SameSite=Strict cookie that then works', async () => {
    const response = await fetch(server.newUrl(), { redirect: 'manual' });
    assert.equal(response.status, 303);
    assert.equal(response.headers.get('location'), '/');
    assertCsp(response.headers);
    const setCookie = response.headers.get('set-cookie') ?? '';
    const attributes = setCookie.split(';').map((part) => part.trim());
    assert.match(attributes[0] ?? '', new RegExp(`^${SESSION_COOKIE}=[0-9a-f]{64}$`));
    assert.ok(attributes.includes('HttpOnly'), setCookie);
    assert.ok(attributes.includes('SameSite=Strict'), setCookie);
    assert.ok(attributes.includes('Path=/'), setCookie);
    // Persistent, so closing the browser does not sign out: as long as the server honours it.
    assert.ok(attributes.includes(`Max-Age=${SESSION_LIFETIME_MS / 1000}`), setCookie);

    const page = await fetch(`${server.origin}/`, { headers: { cookie: attributes[0]! } });
    assert.equal(page.status, 200);
    assert.equal(await page.text(), INDEX_HTML);
    assertCsp(page.headers);
    // Among other cookies too.
    const mixed = await fetch(`${server.origin}/`, { headers: { cookie: `a=1; ${attributes[0]}; b=2` } });
    assert.equal(mixed.status, 200);
  });

  test('the token is only exchanged on GET', async () => {
    const url = server.newUrl();
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
      redirect: 'manual',
    });
    assert.equal(response.status, 401);
    assert.equal(response.headers.get('set-cookie'), null);
    // Nor did the POST spend it.
    assert.match(await login(url), new RegExp(`^${SESSION_COOKIE}=[0-9a-f]{64}$`));
  });

  test('every response carries the CSP', async () => {
    for (const response of [
      await fetch(`${server.origin}/`, { headers: { cookie } }),
      await fetch(`${server.origin}/missing.js`, { headers: { cookie } }),
      await fetch(`${server.origin}/api/call`, { headers: { cookie } }),
    ]) {
      assertCsp(response.headers);
      assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
      await response.arrayBuffer();
    }
  });
});

describe('one-time URL', { timeout: SUITE_TIMEOUT_MS }, () => {
  test('a second exchange of a token is 401 with a page saying the link was used, and sets no cookie', async () => {
    const url = server.newUrl();
    const first = await login(url);
    const warnedBefore = warnings.length;
    const again = await fetch(url, { redirect: 'manual' });
    assert.equal(again.status, 401);
    assert.equal(again.headers.get('set-cookie'), null);
    assert.match(again.headers.get('content-type') ?? '', /^text\/html/);
    assertCsp(again.headers);
    const page = await again.text();
    assert.match(page, /already used/);
    assert.match(page, /npm run web/);
    assert.match(page, /kill -USR2/);
    assert.ok(!page.includes(new URL(url).searchParams.get('token')!), 'the page echoes the token');
    assert.equal(warnings.length, warnedBefore + 1, 'the reuse is not logged');
    assert.match(warnings.at(-1)!, /already used/);
    // The same browser's session goes on; so does the login from before().
    assert.equal((await fetch(`${server.origin}/`, { headers: { cookie: first } })).status, 200);
    assert.equal((await fetch(`${server.origin}/`, { headers: { cookie } })).status, 200);
  });

  test('the 401 pages say the way back that works for how this process was started', async () => {
    const way = 'For a new link, run `kill -USR2 4242` (web mode started by `npm run web`, pid 4242): it prints the link where it prints its output.';
    const background = await startWebServer({ dispatch, bus: services.bus, staticDir, port: 0, warn: () => {}, wayBack: () => way });
    try {
      const signedOut = await fetch(`${background.origin}/`, { redirect: 'manual' });
      assert.equal(signedOut.status, 401);
      const text = await signedOut.text();
      assert.ok(text.trimEnd().endsWith(way), text);
      assert.doesNotMatch(text, /press Enter/);
      const url = background.newUrl();
      await (await fetch(url, { redirect: 'manual' })).arrayBuffer();
      const page = await (await fetch(url, { redirect: 'manual' })).text();
      assert.match(page, /<code>kill -USR2 4242<\/code> \(web mode started by <code>npm run web<\/code>, pid 4242\)/);
      assert.doesNotMatch(page, /press Enter/);
    } finally {
      await background.close();
    }
  });

  test('the printed URL was spent by the first login', async () => {
    const again = await fetch(server.url, { redirect: 'manual' });
    assert.equal(again.status, 401);
    assert.match(await again.text(), /already used/);
  });

  test('every exchange mints its own cookie, and earlier cookies keep working', async () => {
    const cookies = [await login(server.newUrl()), await login(server.newUrl()), await login(server.newUrl())];
    assert.equal(new Set([cookie, ...cookies]).size, 4, 'a cookie was handed out twice');
    for (const each of [cookie, ...cookies]) {
      assert.equal((await fetch(`${server.origin}/`, { headers: { cookie: each } })).status, 200, each);
      const opened = await openSocket({ origin: server.origin, cookie: each });
      assert.ok(opened.ok, 'the WebSocket refused an earlier cookie');
      if (opened.ok) opened.socket.ws.close();
    }
  });

  test('minting a URL spends nothing else: an older unused URL still works once', async () => {
    const older = server.newUrl();
    const newer = server.newUrl();
    assert.notEqual(older, newer);
    assert.match(newer, new RegExp(`^${server.origin}/\\?token=[0-9a-f]{64}$`));
    await login(newer);
    await login(older);
    assert.equal((await fetch(older, { redirect: 'manual' })).status, 401);
  });

  test('cookies and URLs live only as long as the server: after a restart on the same port they are refused', async () => {
    const first = await startWebServer({ dispatch, bus: services.bus, staticDir, port: 0, warn: () => {} });
    let firstCookie: string;
    let unused: string;
    try {
      firstCookie = await login(first.url);
      unused = first.newUrl();
      assert.equal((await fetch(`${first.origin}/`, { headers: { cookie: firstCookie } })).status, 200);
    } finally {
      await first.close();
    }

    // Same port, so the browser would send the old cookie to it. (Through node:http without a pool:
    // fetch would reuse a connection the first server closed.)
    const restarted = await startWebServer({ dispatch, bus: services.bus, staticDir, port: first.port, warn: () => {} });
    const port = restarted.port;
    try {
      assert.equal(restarted.origin, first.origin);
      assert.equal((await raw({ port, path: '/', headers: { cookie: firstCookie } })).status, 401);
      const refusedSocket = await openSocket({ origin: restarted.origin, cookie: firstCookie, port });
      assert.deepEqual(refusedSocket, { ok: false, status: 401 });
      const oldUrl = await raw({ port, path: new URL(unused).pathname + new URL(unused).search });
      assert.equal(oldUrl.status, 401);
      assert.equal(oldUrl.headers['set-cookie'], undefined);
      // The restarted server's own URL works.
      const fresh = await raw({ port, path: new URL(restarted.url).pathname + new URL(restarted.url).search });
      assert.equal(fresh.status, 303);
      const freshCookie = (fresh.headers['set-cookie']?.[0] ?? '').split(';')[0]!;
      assert.equal((await raw({ port, path: '/', headers: { cookie: freshCookie } })).status, 200);
    } finally {
      await restarted.close();
    }
  });
});
