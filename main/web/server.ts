// Web mode's HTTP + WebSocket server: the same contract as Electron IPC, for a browser on this
// machine only. Binds 127.0.0.1, trades a one-line URL token for an HttpOnly SameSite=Strict cookie.

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
import {
  allowedHosts,
  allowedOrigins,
  isJsonContentType,
  newSecret,
  readCookie,
  secretsEqual,
  sessionCookieHeader,
  setSecurityHeaders,
} from './security.ts';
import { serveStatic } from './static-files.ts';

export interface WebServerOptions {
  dispatch: Dispatcher;
  bus: EventBus;
  /** Folder with the built renderer (index.html and assets/). */
  staticDir: string;
  /** 0 (default) picks a free port. */
  port?: number;
}

export interface RunningWebServer {
  readonly port: number;
  readonly origin: string;
  /** The URL to open, with the 256-bit token the server swaps for a cookie. */
  readonly url: string;
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

function refuseUpgrade(socket: Duplex, status: number, reason: string): void {
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
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
  const token = newSecret();
  const cookieSecret = newSecret();
  let hosts = new Set<string>();
  let origins = new Set<string>();

  const isAuthenticated = (request: IncomingMessage) => secretsEqual(readCookie(request, SESSION_COOKIE), cookieSecret);

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

  async function handleRequest(request: IncomingMessage, response: ServerResponse): Promise<void> {
    setSecurityHeaders(response);
    if (!hosts.has(request.headers.host ?? '')) return sendPlain(response, 403, 'Forbidden: unexpected Host header');
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');

    const offeredToken = url.searchParams.get('token');
    if (offeredToken !== null && request.method === 'GET') {
      if (!secretsEqual(offeredToken, token)) return sendPlain(response, 401, 'Unauthorized: this link is not valid for this Benchlab');
      response.writeHead(303, { 'Set-Cookie': sessionCookieHeader(cookieSecret), Location: '/', 'Cache-Control': 'no-store' });
      response.end();
      return;
    }
    if (!isAuthenticated(request)) {
      return sendPlain(response, 401, 'Unauthorized: open the link that `npm run web` printed in its terminal.');
    }
    if (url.pathname === HTTP_CALL_PATH) {
      if (request.method !== 'POST') return sendPlain(response, 405, 'Method Not Allowed');
      return handleCall(request, response);
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      if (!isJsonContentType(request)) return sendPlain(response, 415, 'Unsupported Media Type: state-changing requests must be application/json');
      return sendPlain(response, 405, 'Method Not Allowed');
    }
    return serveStatic(options.staticDir, url.pathname, response);
  }

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_PAYLOAD_BYTES });
  wss.on('connection', (socket) => attachSocket(socket, options));

  const server: Server = createServer((request, response) => {
    handleRequest(request, response).catch(() => {
      if (!response.headersSent) sendPlain(response, 500, 'Internal Server Error');
      else response.destroy();
    });
  });
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    let path: string;
    try {
      path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    } catch {
      // An unparsable target (e.g. `//[`) must not throw out of this listener: that would crash the process.
      return refuseUpgrade(socket, 400, 'Bad Request');
    }
    if (!hosts.has(request.headers.host ?? '')) return refuseUpgrade(socket, 403, 'Forbidden');
    if (!origins.has(request.headers.origin ?? '')) return refuseUpgrade(socket, 403, 'Forbidden');
    if (!isAuthenticated(request)) return refuseUpgrade(socket, 401, 'Unauthorized');
    if (path !== WEB_SOCKET_PATH) return refuseUpgrade(socket, 404, 'Not Found');
    wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request));
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

  return {
    port,
    origin,
    url: `${origin}/?token=${token}`,
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
