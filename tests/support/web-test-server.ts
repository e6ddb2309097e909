// The web-mode server as its tests meet it: started on a free port over real services and a real
// SQLite file with a static dir (and secrets beside it that must never be served), a logged-in cookie,
// and the ways the tests talk to it: raw HTTP with any Host, raw bytes, /api/call, WebSockets.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import WebSocket from 'ws';
import type { Host } from '../../app/hosts/hosts.ts';
import { createDispatcher, type Dispatcher } from '../../main/api/dispatch.ts';
import { createHandlers } from '../../main/api/handlers.ts';
import { createServices, type Services } from '../../main/services/services.ts';
import { startWebServer, type RunningWebServer } from '../../main/web/server.ts';

export const MiB = 1024 * 1024;
export const SUITE_TIMEOUT_MS = 20_000;
export const INDEX_HTML = '<!doctype html><title>Benchlab test page</title><p>served from the static dir</p>';
export const SECRET = 'TOP-SECRET-OUTSIDE-STATIC-DIR';

export let root: string;
export let staticDir: string;
export let services: Services;
export let dispatch: Dispatcher;
export let server: RunningWebServer;
export let cookie: string;
export const internalErrors: unknown[] = [];
/** The server's warn lines (malformed requests, reused links), in order. */
export const warnings: string[] = [];
export const openSockets = new Set<WebSocket>();

/** The server, its services and a logged-in cookie for the test file, cleaned up after it; no request may end in an internal error. */
export function useWebServer(): void {
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
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A request through node:http, which (unlike fetch) lets the test set any Host header and raw path. */
export function raw(options: { method?: string; path?: string; headers?: Record<string, string>; body?: string | Buffer; setHost?: boolean; port?: number }): Promise<RawResponse> {
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
export async function login(url: string): Promise<string> {
  const response = await fetch(url, { redirect: 'manual' });
  assert.equal(response.status, 303);
  const setCookie = response.headers.get('set-cookie');
  assert.ok(setCookie, 'no Set-Cookie on the token exchange');
  return setCookie.split(';')[0]!;
}

export interface ErrorBody {
  code: string;
  message: string;
}

/** What /api/call answers: `{ result }` or `{ error: { code, message } }`. */
export interface CallBody {
  result?: unknown;
  error: ErrorBody;
}

export async function call(name: unknown, args: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: CallBody }> {
  const response = await fetch(`${server.origin}/api/call`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, ...headers },
    body: JSON.stringify({ name, args }),
  });
  return { status: response.status, body: (await response.json()) as CallBody };
}

export async function storedHosts(): Promise<Host[]> {
  return services.hosts.list();
}

let hostCounter = 0;
export function newHost(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  hostCounter++;
  return { name: `host-${hostCounter}-${Date.now()}`, address: `10.1.0.${hostCounter}`, port: 22, user: 'bench', auth: 'agent', ...overrides };
}

export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export function assertCsp(headers: Headers | IncomingHttpHeaders): void {
  const value = headers instanceof Headers ? headers.get('content-security-policy') : headers['content-security-policy'];
  assert.ok(typeof value === 'string', 'no Content-Security-Policy header');
  assert.match(value, /(^|;\s*)default-src 'self'(;|$)/);
}

/** Tries a TCP connection; resolves with 'connected' or the error code. */
export function tryConnect(host: string, port: number): Promise<string> {
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
export function rawExchange(request: Buffer): Promise<string> {
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
export function statusOf(answer: string): number {
  return Number(/^HTTP\/1\.1 (\d{3}) /.exec(answer)?.[1] ?? 0);
}

export type ServerMessage = { type: string; id?: number | null; ok?: boolean; result?: unknown; error?: ErrorBody; event?: string; payload?: unknown };

export interface TestSocket {
  ws: WebSocket;
  next(predicate?: (message: ServerMessage) => boolean, timeoutMs?: number): Promise<ServerMessage>;
  received: ServerMessage[];
  call(id: number, name: string, args: unknown): Promise<ServerMessage>;
  closed: Promise<{ code: number; reason: string }>;
}

/** Opens a WebSocket; resolves with the upgrade status when the server refuses it. */
export function openSocket(options: { origin?: string; cookie?: string; path?: string; host?: string; port?: number } = {}): Promise<{ ok: true; socket: TestSocket } | { ok: false; status: number }> {
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

export async function openGoodSocket(): Promise<TestSocket> {
  const opened = await openSocket({ origin: server.origin, cookie });
  assert.ok(opened.ok, `the upgrade was refused with ${opened.ok ? '' : opened.status}`);
  return opened.socket;
}
