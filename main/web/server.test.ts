// Web-mode security and transport tests against the real server, real services and a real SQLite file.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import WebSocket from 'ws';
import type { AppInfo, LogLine } from '../../app/contract.ts';
import type { Host } from '../../app/hosts/hosts.ts';
import { SESSION_COOKIE } from '../../app/common/wire.ts';
import { createDispatcher, type Dispatcher } from '../api/dispatch.ts';
import { createHandlers } from '../api/handlers.ts';
import { createServices, type Services } from '../services/services.ts';
import { startWebServer, type RunningWebServer } from './server.ts';
import { SESSION_LIFETIME_MS } from './web-mode-memory.ts';

const MiB = 1024 * 1024;
const SUITE_TIMEOUT_MS = 20_000;
const INDEX_HTML = '<!doctype html><title>Benchlab test page</title><p>served from the static dir</p>';
const SECRET = 'TOP-SECRET-OUTSIDE-STATIC-DIR';

let root: string;
let staticDir: string;
let services: Services;
let dispatch: Dispatcher;
let server: RunningWebServer;
let cookie: string;
const internalErrors: unknown[] = [];
/** The server's warn lines (malformed requests, reused links), in order. */
const warnings: string[] = [];
const openSockets = new Set<WebSocket>();

before(async () => {
  root = mkdtempSync(join(tmpdir(), 'benchlab-web-test-'));
  staticDir = join(root, 'static');
  mkdirSync(join(staticDir, 'assets'), { recursive: true });
  writeFileSync(join(staticDir, 'index.html'), INDEX_HTML);
  writeFileSync(join(staticDir, 'assets', 'app.js'), 'console.log("app");');
  writeFileSync(join(root, 'secret.txt'), SECRET);
  writeFileSync(join(root, 'package.json'), `{"secret":"${SECRET}"}`);
  services = createServices({ dataDir: join(root, 'data'), transport: 'web', version: 'test' });
  dispatch = createDispatcher(createHandlers(services), (error) => internalErrors.push(error));
  server = await startWebServer({ dispatch, bus: services.bus, staticDir, port: 0, warn: (line) => warnings.push(line) });
  cookie = await login(server.url);
});

after(async () => {
  for (const socket of openSockets) socket.terminate();
  await server?.close();
  await services?.close();
  rmSync(root, { recursive: true, force: true });
  assert.deepEqual(internalErrors, [], 'a request ended in an internal error');
}, { timeout: 10_000 });

// ---------- helpers ----------

interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A request through node:http, which (unlike fetch) lets the test set any Host header and raw path. */
function raw(options: { method?: string; path?: string; headers?: Record<string, string>; body?: string | Buffer; setHost?: boolean; port?: number }): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: options.port ?? server.port,
        method: options.method ?? 'GET',
        path: options.path ?? '/',
        headers: options.headers ?? {},
        setHost: options.setHost ?? true,
        agent: false, // one connection per request: a refused body may leave its connection closed
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** Exchanges a one-time URL for the session cookie it sets (`name=value`). */
async function login(url: string): Promise<string> {
  const response = await fetch(url, { redirect: 'manual' });
  assert.equal(response.status, 303);
  const setCookie = response.headers.get('set-cookie');
  assert.ok(setCookie, 'no Set-Cookie on the token exchange');
  return setCookie.split(';')[0]!;
}

interface ErrorBody {
  code: string;
  message: string;
}

/** What /api/call answers: `{ result }` or `{ error: { code, message } }`. */
interface CallBody {
  result?: unknown;
  error: ErrorBody;
}

async function call(name: unknown, args: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: CallBody }> {
  const response = await fetch(`${server.origin}/api/call`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, ...headers },
    body: JSON.stringify({ name, args }),
  });
  return { status: response.status, body: (await response.json()) as CallBody };
}

async function storedHosts(): Promise<Host[]> {
  return services.hosts.list();
}

let hostCounter = 0;
function newHost(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  hostCounter++;
  return { name: `host-${hostCounter}-${Date.now()}`, address: `10.1.0.${hostCounter}`, port: 22, user: 'bench', auth: 'agent', ...overrides };
}

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function assertCsp(headers: Headers | IncomingHttpHeaders): void {
  const value = headers instanceof Headers ? headers.get('content-security-policy') : headers['content-security-policy'];
  assert.ok(typeof value === 'string', 'no Content-Security-Policy header');
  assert.match(value, /(^|;\s*)default-src 'self'(;|$)/);
}

/** Tries a TCP connection; resolves with 'connected' or the error code. */
function tryConnect(host: string, port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const timer = setTimeout(() => {
      socket.destroy();
      resolve('timeout');
    }, 1000);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve(error.code ?? 'error');
    });
  });
}

/**
 * Sends bytes as they are over one TCP connection and resolves with everything the server answered
 * once it closes: fetch and node:http would normalise or refuse the request targets these tests send.
 */
function rawExchange(request: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' ? undefined : reject(error)));
    // Not end(): node:http drops the answers still pending when a client half-closes. Each request
    // asks for `Connection: close` (or is refused on its raw socket), so the server closes.
    socket.write(request);
  });
}

/** The status code of a raw HTTP answer, or 0 when there was none. */
function statusOf(answer: string): number {
  return Number(/^HTTP\/1\.1 (\d{3}) /.exec(answer)?.[1] ?? 0);
}

type ServerMessage = { type: string; id?: number | null; ok?: boolean; result?: unknown; error?: ErrorBody; event?: string; payload?: unknown };

interface TestSocket {
  ws: WebSocket;
  next(predicate?: (message: ServerMessage) => boolean, timeoutMs?: number): Promise<ServerMessage>;
  received: ServerMessage[];
  call(id: number, name: string, args: unknown): Promise<ServerMessage>;
  closed: Promise<{ code: number; reason: string }>;
}

/** Opens a WebSocket; resolves with the upgrade status when the server refuses it. */
function openSocket(options: { origin?: string; cookie?: string; path?: string; host?: string; port?: number } = {}): Promise<{ ok: true; socket: TestSocket } | { ok: false; status: number }> {
  const headers: Record<string, string> = {};
  if (options.cookie) headers.cookie = options.cookie;
  if (options.host) headers.host = options.host;
  const ws = new WebSocket(`ws://127.0.0.1:${options.port ?? server.port}${options.path ?? '/api/ws'}`, {
    headers,
    ...(options.origin === undefined ? {} : { origin: options.origin }),
  });
  openSockets.add(ws);
  const received: ServerMessage[] = [];
  const waiters: Array<{ predicate: (message: ServerMessage) => boolean; resolve: (message: ServerMessage) => void }> = [];
  ws.on('message', (data) => {
    const message = JSON.parse(data.toString()) as ServerMessage;
    received.push(message);
    const index = waiters.findIndex((waiter) => waiter.predicate(message));
    if (index >= 0) waiters.splice(index, 1)[0]!.resolve(message);
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => {
      openSockets.delete(ws);
      resolve({ code, reason: reason.toString() });
    }),
  );
  const socket: TestSocket = {
    ws,
    received,
    closed,
    next: (predicate = () => true, timeoutMs = 3000) => {
      const already = received.find(predicate);
      if (already) {
        received.splice(received.indexOf(already), 1);
        return Promise.resolve(already);
      }
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no matching WebSocket message within ${timeoutMs} ms`)), timeoutMs);
        waiters.push({
          predicate,
          resolve: (message) => {
            clearTimeout(timer);
            received.splice(received.indexOf(message), 1);
            resolve(message);
          },
        });
      });
    },
    call: (id, name, args) => {
      ws.send(JSON.stringify({ type: 'call', id, name, args }));
      return socket.next((message) => message.type === 'result' && message.id === id);
    },
  };
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve({ ok: true, socket }));
    ws.once('unexpected-response', (_request, response) => {
      resolve({ ok: false, status: response.statusCode ?? 0 });
      response.resume();
      ws.terminate();
    });
    ws.once('error', (error) => reject(error));
  });
}

async function openGoodSocket(): Promise<TestSocket> {
  const opened = await openSocket({ origin: server.origin, cookie });
  assert.ok(opened.ok, `the upgrade was refused with ${opened.ok ? '' : opened.status}`);
  return opened.socket;
}

// ---------- tests ----------

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
