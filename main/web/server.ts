// Web mode's HTTP + WebSocket server: the same contract as Electron IPC, for a browser on this
// machine only. Binds 127.0.0.1, trades a one-time URL token for an HttpOnly SameSite=Strict cookie,
// and answers every request it cannot read with 400 and a warn line, never a 500.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { isEventName } from '../../app/contract.ts';
import { ApiError } from '../../app/common/errors.ts';
import { MAX_PAYLOAD_BYTES, parseUntrustedJson } from '../../app/common/safe-json.ts';
import { HTTP_CALL_PATH, SESSION_COOKIE, WEB_SOCKET_PATH, type ServerMessage } from '../../app/common/wire.ts';
import type { Dispatcher } from '../api/dispatch.ts';
import type { EventBus } from '../services/event-bus.ts';
import { describeRawRequest, describeRequest, parseRequestTarget } from './request-target.ts';
import { allowedHosts, allowedOrigins, hostHeaderRefusal, isJsonContentType, readCookie, sessionCookieHeader, setSecurityHeaders } from './security.ts';
import { serveStatic } from './static-files.ts';
import { wayBack, wayBackHtml } from './way-back.ts';
import { WebLogins } from './web-logins.ts';
import { SESSION_LIFETIME_MS } from './web-mode-memory.ts';

const SESSION_LIFETIME_DAYS = SESSION_LIFETIME_MS / (24 * 60 * 60 * 1000);

export interface WebServerOptions {
  dispatch: Dispatcher;
  bus: EventBus;
  /** Folder with the built renderer (index.html and assets/). */
  staticDir: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** The logins to honour (remembered ones included); fresh, in memory only, by default. */
  logins?: WebLogins;
  /** One line for each refused malformed request and each reused link. */
  warn: (line: string) => void;
  /** How a signed-out person gets a new link, for the way this process was started (way-back.ts). */
  wayBack?: () => string;
}

export interface RunningWebServer {
  readonly port: number;
  readonly origin: string;
  /** The first URL to open, with a 256-bit token the server swaps for a cookie once. */
  readonly url: string;
  /** Mints another one-time URL (`npm run web` prints one on demand); nothing else is spent. */
  newUrl(): string;
  close(): Promise<void>;
}

/** Bytes a slow browser may leave unread before further events to it are dropped. */
const MAX_BUFFERED_EVENT_BYTES = 4 * 1024 * 1024;

function sendPlain(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
  response.end(text + '\n');
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
  });
  response.end(text);
}

/** Answers on a connection node:http has handed over (upgrade, CONNECT, parse error), then closes it. */
function answerAndClose(socket: Duplex, status: number, reason: string): void {
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

/** Without a way told by the process that started the server (tests): as `npm run web` in a terminal. */
const DEFAULT_WAY_BACK = wayBack({ startedBy: 'npm run web', enterWorks: true, pid: process.pid });

function linkAlreadyUsedPage(way: string): string {
  return `<!doctype html>
<meta charset="utf-8">
<title>Benchlab: link already used</title>
<h1>This link was already used</h1>
<p>Each link that Benchlab web mode prints opens it once, in one browser; that browser stays signed in for ${SESSION_LIFETIME_DAYS} days.</p>
<p>${wayBackHtml(way)}</p>
`;
}

const STATUS_FOR_ERROR: Record<string, number> = {
  invalid_args: 400,
  unknown_request: 404,
  not_found: 404,
  conflict: 409,
  too_large: 413,
};

async function readBody(request: IncomingMessage, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new ApiError('too_large', `request body is larger than ${limit} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export async function startWebServer(options: WebServerOptions): Promise<RunningWebServer> {
  const logins = options.logins ?? new WebLogins();
  const way = () => options.wayBack?.() ?? DEFAULT_WAY_BACK;
  let hosts = new Set<string>();
  let origins = new Set<string>();

  const isAuthenticated = (request: IncomingMessage) => logins.isSession(readCookie(request, SESSION_COOKIE));
  const warnMalformed = (request: IncomingMessage, reason: string) =>
    options.warn(`refused a malformed request with 400 (${reason}): ${describeRequest(request.method, request.url)}`);

  async function handleCall(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (!isJsonContentType(request)) {
      sendJson(response, 415, { error: { code: 'invalid_args', message: 'Content-Type must be application/json' } });
      return;
    }
    try {
      const message = parseUntrustedJson(await readBody(request, MAX_PAYLOAD_BYTES)) as { name?: unknown; args?: unknown } | null;
      const outcome = await options.dispatch(message?.name, message?.args);
      if (outcome.ok) sendJson(response, 200, { result: outcome.result });
      else sendJson(response, STATUS_FOR_ERROR[outcome.error.code] ?? 500, { error: outcome.error });
    } catch (error) {
      const shape = error instanceof ApiError ? error.toJSON() : { code: 'internal', message: 'request failed' };
      sendJson(response, STATUS_FOR_ERROR[shape.code] ?? 500, { error: shape });
      if (shape.code === 'too_large') request.destroy();
    }
  }

  function exchangeToken(token: string, response: ServerResponse): void {
    const exchange = logins.exchange(token);
    if (exchange.outcome === 'session') {
      response.writeHead(303, { 'Set-Cookie': sessionCookieHeader(exchange.cookie, SESSION_LIFETIME_MS / 1000), Location: '/', 'Cache-Control': 'no-store' });
      response.end();
    } else if (exchange.outcome === 'spent') {
      options.warn('refused a one-time link that was already used (401): someone opened it again');
      response.writeHead(401, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
      response.end(linkAlreadyUsedPage(way()));
    } else {
      sendPlain(response, 401, `Unauthorized: this link is not valid for this Benchlab. ${way()}`);
    }
  }

  async function handleRequest(request: IncomingMessage, response: ServerResponse): Promise<void> {
    setSecurityHeaders(response);
    const target = parseRequestTarget(request.url);
    if (!target.ok) {
      warnMalformed(request, target.reason);
      return sendPlain(response, 400, `Bad Request: ${target.reason}`);
    }
    const badHost = hostHeaderRefusal(request, hosts);
    if (badHost?.status === 400) warnMalformed(request, badHost.reason);
    if (badHost) return sendPlain(response, badHost.status, `${badHost.status === 400 ? 'Bad Request' : 'Forbidden'}: ${badHost.reason}`);

    const offeredToken = target.query.get('token');
    if (offeredToken !== null && request.method === 'GET') return exchangeToken(offeredToken, response);
    if (!isAuthenticated(request)) return sendPlain(response, 401, `Unauthorized: open a one-time link that Benchlab web mode printed. ${way()}`);
    if (target.path === HTTP_CALL_PATH) {
      if (request.method !== 'POST') return sendPlain(response, 405, 'Method Not Allowed');
      return handleCall(request, response);
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      if (!isJsonContentType(request)) return sendPlain(response, 415, 'Unsupported Media Type: state-changing requests must be application/json');
      return sendPlain(response, 405, 'Method Not Allowed');
    }
    return serveStatic(options.staticDir, target.path, response);
  }

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_PAYLOAD_BYTES });
  wss.on('connection', (socket) => attachSocket(socket, options));

  /** The answer being written on each connection, which a parse error's 400 must not cut into. */
  const answering = new WeakMap<Duplex, ServerResponse>();
  const server: Server = createServer((request, response) => {
    answering.set(request.socket, response);
    response.once('close', () => {
      if (answering.get(request.socket) === response) answering.delete(request.socket);
    });
    handleRequest(request, response).catch(() => {
      if (!response.headersSent) sendPlain(response, 500, 'Internal Server Error');
      else response.destroy();
    });
  });
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const target = parseRequestTarget(request.url);
    if (!target.ok) {
      warnMalformed(request, target.reason);
      return answerAndClose(socket, 400, 'Bad Request');
    }
    const badHost = hostHeaderRefusal(request, hosts);
    if (badHost?.status === 400) warnMalformed(request, badHost.reason);
    if (badHost) return answerAndClose(socket, badHost.status, badHost.status === 400 ? 'Bad Request' : 'Forbidden');
    if (!origins.has(request.headers.origin ?? '')) return answerAndClose(socket, 403, 'Forbidden');
    if (!isAuthenticated(request)) return answerAndClose(socket, 401, 'Unauthorized');
    if (target.path !== WEB_SOCKET_PATH) return answerAndClose(socket, 404, 'Not Found');
    wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request));
  });
  // Unanswered, node:http would just drop a CONNECT: say why, like for any other unreadable request.
  server.on('connect', (request: IncomingMessage, socket: Duplex) => {
    socket.on('error', () => socket.destroy());
    warnMalformed(request, 'CONNECT is not served');
    answerAndClose(socket, 400, 'Bad Request');
  });
  // What node:http's parser refuses (a raw NUL or non-ASCII byte in the target, a request line past
  // its header size, a garbled method): the same 400, and the line node:http would not write.
  server.on('clientError', (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) return socket.destroy();
    const timedOut = error.code === 'ERR_HTTP_REQUEST_TIMEOUT';
    // An idle or slow connection (a browser's speculative one, say) is no malformed request.
    if (!timedOut) options.warn(`refused a malformed request with 400 (${error.message}): ${describeRawRequest(error.rawPacket)}`);
    // Bytes after a request already being answered (a body node:http could not delimit): that answer
    // has begun, and a 400 written now would corrupt it.
    if (answering.get(socket)?.headersSent) return socket.destroy();
    if (timedOut) answerAndClose(socket, 408, 'Request Timeout');
    else answerAndClose(socket, 400, 'Bad Request');
  });

  await new Promise<void>((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolvePromise();
    });
  });
  const port = (server.address() as AddressInfo).port;
  hosts = allowedHosts(port);
  origins = allowedOrigins(port);
  const origin = `http://127.0.0.1:${port}`;

  const newUrl = () => `${origin}/?token=${logins.mintToken()}`;

  return {
    port,
    origin,
    url: newUrl(),
    newUrl,
    close: () =>
      new Promise<void>((resolvePromise) => {
        for (const client of wss.clients) client.terminate();
        wss.close();
        server.closeAllConnections();
        server.close(() => resolvePromise());
      }),
  };
}

/** One browser tab's WebSocket: calls in, results and subscribed events out. */
function attachSocket(socket: WebSocket, options: WebServerOptions): void {
  const subscriptions = new Map<string, () => void>();
  const send = (message: ServerMessage) => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
  };

  socket.on('message', (data, isBinary) => {
    if (isBinary) return send({ type: 'result', id: null, ok: false, error: { code: 'invalid_args', message: 'binary messages are not accepted' } });
    let message: { type?: unknown; id?: unknown; name?: unknown; args?: unknown; event?: unknown };
    try {
      message = (parseUntrustedJson(data.toString()) ?? {}) as typeof message;
    } catch (error) {
      const shape = error instanceof ApiError ? error.toJSON() : { code: 'invalid_args' as const, message: 'bad message' };
      return send({ type: 'result', id: null, ok: false, error: shape });
    }
    const id = typeof message.id === 'number' && Number.isSafeInteger(message.id) ? message.id : null;
    if (message.type === 'call') {
      void options.dispatch(message.name, message.args).then((outcome) => send({ type: 'result', id, ...outcome }));
    } else if (message.type === 'subscribe' && isEventName(message.event)) {
      const event = message.event;
      if (subscriptions.has(event)) return;
      subscriptions.set(
        event,
        options.bus.subscribe(event, (payload) => {
          // A tab that stopped reading must not make the server buffer without bound.
          if (socket.bufferedAmount < MAX_BUFFERED_EVENT_BYTES) send({ type: 'event', event, payload });
        }),
      );
    } else if (message.type === 'unsubscribe' && typeof message.event === 'string') {
      subscriptions.get(message.event)?.();
      subscriptions.delete(message.event);
    } else {
      send({ type: 'result', id, ok: false, error: { code: 'unknown_request', message: 'unknown message type' } });
    }
  });
  socket.on('close', () => {
    for (const unsubscribe of subscriptions.values()) unsubscribe();
    subscriptions.clear();
  });
  socket.on('error', () => socket.terminate());
}
