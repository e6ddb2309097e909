// One HTTP connection of a load thread, over node:net / node:tls: keep-alive (HTTP/1.1), or one
// request and closed (HTTP/1.0 or a `Connection: close` header, as ab sends them). Writes a
// pre-encoded request, keeps a FIFO of the requests on the wire (each with the time its latency runs
// from, its write time and the phase it was scheduled in), parses answers (Content-Length, chunked,
// HEAD, 1xx, read-until-close, `Connection: close`) and settles every request exactly once: answered,
// with its phases (the connect it paid, its wait for the first byte), or failed with the kind the
// socket's end says (FIN → closed, RST/EPIPE → reset, refused, other) or expired (timeout): the
// connection closed with it, or kept waiting for its answer, which is then read and not counted.
// No timers here: the thread's deadline queue decides when a request has waited too long.

import { connect as connectTcp, isIP, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import { connectionPerRequest, type RequestSpec } from '../app/runs/load-profile.ts';
import type { ErrorKind } from '../app/runs/run-summary.ts';
import { hostNowMs } from './host-clock.ts';

export interface Target {
  protocol: 'http' | 'https';
  hostname: string;
  port: number;
}

/** What a thread hands every connection: the target and the request, encoded once. */
export interface EncodedRequest {
  target: Target;
  bytes: Buffer;
  head: boolean;
  /** Every request opens its own connection (HTTP/1.0, `Connection: close`): one request per connection. */
  perRequest: boolean;
}

export interface ConnectionListener {
  connected(connection: HttpConnection, connectUs: number): void;
  /**
   * An answer arrived. `waitingUs`: from the request's write (or the connect it waited for) to the
   * answer's first byte; `connectUs`: the connect this request paid (it was the connection's first),
   * 0 when it reused the connection.
   */
  answered(connection: HttpConnection, statusCode: number, bytes: number, from: number, tag: number, waitingUs: number, connectUs: number): void;
  failed(connection: HttpConnection, kind: ErrorKind, from: number, tag: number): void;
  /** The answer to a request already failed by `expire` arrived: it is read, not counted (only connections told to expire). */
  lateAnswered?(connection: HttpConnection): void;
  /** The socket is gone; `error` is what ended it (null for a FIN or our own close). */
  closed(connection: HttpConnection, wasConnected: boolean, error: unknown): void;
}

export const now = hostNowMs;

export function encodeRequest(target: Target, request: RequestSpec): EncodedRequest {
  const defaultPort = target.protocol === 'https' ? 443 : 80;
  const host = target.hostname.includes(':') ? `[${target.hostname}]` : target.hostname;
  const lines = [`${request.method} ${request.path} HTTP/${request.httpVersion === '1.0' ? '1.0' : '1.1'}`];
  const given = new Set(Object.keys(request.headers).map((name) => name.toLowerCase()));
  if (!given.has('host')) lines.push(`Host: ${target.port === defaultPort ? host : `${host}:${target.port}`}`);
  for (const [name, value] of Object.entries(request.headers)) lines.push(`${name}: ${value}`);
  const body = request.body === undefined ? null : Buffer.from(request.body);
  if (body && !given.has('content-length')) lines.push(`Content-Length: ${body.length}`);
  const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
  return { target, bytes: body ? Buffer.concat([head, body]) : head, head: request.method === 'HEAD', perRequest: connectionPerRequest(request) };
}

/** The error kind of a socket error, by its code. */
export function errorKindOf(error: unknown): ErrorKind {
  switch ((error as { code?: unknown } | null)?.code) {
    case 'ECONNREFUSED':
      return 'refused';
    case 'ECONNRESET':
    case 'EPIPE':
    case 'ECONNABORTED':
      return 'reset';
    default:
      return 'other';
  }
}

const MAX_HEAD_BYTES = 64 * 1024;
const CR = 13;
const LF = 10;

/** Where the parser is in an answer: reading its status line and headers, or which kind of body. */
const Body = { Head: 0, Length: 1, ChunkSize: 2, ChunkExtension: 3, ChunkData: 4, ChunkEnd: 5, Trailers: 6, UntilClose: 7 } as const;

class ProtocolError extends Error {}

export class HttpConnection {
  readonly #request: EncodedRequest;
  readonly #listener: ConnectionListener;
  readonly #socket: Socket;
  readonly #openedAt = now();
  #connectedAt = Number.POSITIVE_INFINITY;
  /** µs from the start of the connect to established (TLS handshake included). */
  #connectUs = 0;
  #connected = false;
  #ended = false;
  #closeError: unknown = null;
  // The FIFO of requests on the wire, as a ring: the time latency runs from, the write, and the phase tag.
  #from = new Float64Array(4);
  #wrote = new Float64Array(4);
  #tag = new Uint8Array(4);
  #head = 0;
  #count = 0;
  /** Requests ever written, and settled: request `seq` is on the wire while settled <= seq < written. */
  #written = 0;
  #settled = 0;
  /** Requests before this one were failed as timeouts by `expire` while the connection waits for their answers. */
  #expired = 0;
  // Parser state of the answer being read.
  #state: number = Body.Head;
  #pending: Buffer | null = null;
  #remaining = 0;
  #status = 0;
  #bytes = 0;
  #closeAfter = false;
  #lineLength = 0;
  /** When the data being parsed arrived, and when the answer being read began (-1: not yet). */
  #chunkAt = 0;
  #firstByteAt = -1;

  constructor(request: EncodedRequest, listener: ConnectionListener) {
    this.#request = request;
    this.#listener = listener;
    const { hostname, port, protocol } = request.target;
    const socket =
      protocol === 'https'
        ? // A benchmark target, often with a self-signed certificate: its identity is not what is measured.
          connectTls({ host: hostname, port, rejectUnauthorized: false, ...(isIP(hostname) ? {} : { servername: hostname }) })
        : connectTcp({ host: hostname, port });
    this.#socket = socket;
    socket.setNoDelay(true);
    socket.on(protocol === 'https' ? 'secureConnect' : 'connect', this.#onConnect);
    socket.on('data', this.#onData);
    socket.on('end', this.#onEnd);
    socket.on('error', this.#onError);
    socket.on('close', this.#onClose);
  }

  get connected(): boolean {
    return this.#connected;
  }

  /** When the connect started (epoch ms): a request that opened this connection counts from here. */
  get openedAt(): number {
    return this.#openedAt;
  }

  /** False once the connection is ending, or has its one request: it takes no more. */
  get usable(): boolean {
    return !this.#ended && !this.#closeAfter && !(this.#request.perRequest && this.#written > 0);
  }

  /** Requests on the wire. */
  get outstanding(): number {
    return this.#count;
  }

  /** Sequence number the next write gets (for the thread's deadline queue). */
  get nextSeq(): number {
    return this.#written;
  }

  /** Still to be settled: on the wire and not yet failed by `expire`. */
  isOutstanding(seq: number): boolean {
    return seq >= this.#settled && seq >= this.#expired && seq < this.#written;
  }

  /** Writes one request; its latency runs from `from` (epoch ms): the write (closed model) or the intended time (open). */
  send(from: number, tag: number): void {
    if (this.#count === this.#from.length) this.#grow();
    const at = (this.#head + this.#count) & (this.#from.length - 1);
    this.#from[at] = from;
    this.#wrote[at] = now();
    this.#tag[at] = tag;
    this.#count++;
    this.#written++;
    this.#socket.write(this.#request.bytes);
  }

  cork(): void {
    this.#socket.cork();
  }

  uncork(): void {
    this.#socket.uncork();
  }

  /** Fails every request on the wire as `kind` (the thread's timeout) and closes the connection. */
  abort(kind: ErrorKind): void {
    this.#end(kind);
  }

  /**
   * Fails the requests on the wire up to `seq` as timeouts and keeps the connection, which waits for
   * their answers (read, not counted) before it takes its next request (`onTimeout: wait`).
   */
  expire(seq: number): void {
    for (let at = Math.max(this.#settled, this.#expired); at <= seq && at < this.#written; at++) {
      const index = (this.#head + at - this.#settled) & (this.#from.length - 1);
      this.#listener.failed(this, 'timeout', this.#from[index]!, this.#tag[index]!);
    }
    this.#expired = Math.max(this.#expired, seq + 1);
  }

  /** Closes without settling anything: the step is over and what was on the wire stays in flight. */
  drop(): void {
    this.#ended = true;
    this.#count = 0;
    this.#settled = this.#written;
    this.#socket.destroy();
  }

  #grow(): void {
    const size = this.#from.length * 2;
    const from = new Float64Array(size);
    const wrote = new Float64Array(size);
    const tag = new Uint8Array(size);
    for (let i = 0; i < this.#count; i++) {
      const at = (this.#head + i) & (this.#from.length - 1);
      from[i] = this.#from[at]!;
      wrote[i] = this.#wrote[at]!;
      tag[i] = this.#tag[at]!;
    }
    this.#from = from;
    this.#wrote = wrote;
    this.#tag = tag;
    this.#head = 0;
  }

  /** Settles every request on the wire as failed, once, and destroys the socket. */
  #end(kind: ErrorKind): void {
    if (this.#ended) return;
    this.#ended = true;
    // Requests already failed by `expire` are not failed again.
    const skip = Math.max(0, Math.min(this.#count, this.#expired - this.#settled));
    const count = this.#count;
    const from = this.#from;
    const tag = this.#tag;
    const head = this.#head;
    this.#count = 0;
    this.#settled = this.#written;
    for (let i = skip; i < count; i++) {
      const at = (head + i) & (from.length - 1);
      this.#listener.failed(this, kind, from[at]!, tag[at]!);
    }
    this.#socket.destroy();
  }

  #onConnect = (): void => {
    this.#connected = true;
    this.#connectedAt = now();
    this.#connectUs = Math.max(1, Math.round((this.#connectedAt - this.#openedAt) * 1000));
    this.#listener.connected(this, this.#connectUs);
  };

  #onEnd = (): void => {
    // An answer without a length ends with the connection.
    if (this.#state === Body.UntilClose) this.#complete();
    this.#end('closed');
  };

  #onError = (error: unknown): void => {
    this.#closeError = error;
    this.#end(errorKindOf(error));
  };

  #onClose = (): void => {
    this.#end('closed');
    this.#listener.closed(this, this.#connected, this.#closeError);
  };

  #onData = (chunk: Buffer): void => {
    if (this.#ended) return;
    this.#chunkAt = now();
    try {
      this.#parse(chunk);
    } catch {
      // A malformed answer: nothing more on this connection can be trusted.
      this.#end('other');
    }
    if (this.#closeAfter && this.#count > 0 && this.#state === Body.Head && !this.#ended) this.#end('closed');
    else if (this.#closeAfter && this.#count === 0 && !this.#ended) {
      this.#ended = true;
      this.#socket.destroy();
    }
  };

  /** Counts what a sized part (a length body, a chunk) still awaits out of `available` bytes; returns how many it took. */
  #takeSized(available: number): number {
    const take = Math.min(this.#remaining, available);
    this.#bytes += take;
    this.#remaining -= take;
    return take;
  }

  #parse(chunk: Buffer): void {
    let at = 0;
    const length = chunk.length;
    while (at < length && !this.#ended) {
      switch (this.#state) {
        case Body.Head: {
          // ab's "waiting" ends at the first byte of the answer (an interim 1xx's included).
          if (this.#firstByteAt < 0) this.#firstByteAt = this.#chunkAt;
          at = this.#readHead(chunk, at);
          break;
        }
        case Body.Length:
          at += this.#takeSized(length - at);
          if (this.#remaining === 0) this.#complete();
          break;
        case Body.UntilClose:
          this.#bytes += length - at;
          at = length;
          break;
        case Body.ChunkSize: {
          const byte = chunk[at++]!;
          this.#bytes++;
          const digit = hexValue(byte);
          if (digit >= 0) {
            this.#remaining = this.#remaining * 16 + digit;
            if (this.#remaining > Number.MAX_SAFE_INTEGER / 16) throw new ProtocolError('chunk too large');
          } else if (byte === LF) this.#chunkSizeDone();
          else if (byte === 59 /* ; */) this.#state = Body.ChunkExtension;
          else if (byte !== CR && byte !== 32 && byte !== 9) throw new ProtocolError('bad chunk size');
          break;
        }
        case Body.ChunkExtension: {
          const byte = chunk[at++]!;
          this.#bytes++;
          if (byte === LF) this.#chunkSizeDone();
          break;
        }
        case Body.ChunkData: {
          at += this.#takeSized(length - at);
          if (this.#remaining === 0) {
            this.#state = Body.ChunkEnd;
            this.#lineLength = 0;
          }
          break;
        }
        case Body.ChunkEnd: {
          const byte = chunk[at++]!;
          this.#bytes++;
          if (byte === LF) {
            this.#state = Body.ChunkSize;
            this.#remaining = 0;
          } else if (byte !== CR) throw new ProtocolError('bad chunk end');
          break;
        }
        case Body.Trailers: {
          const byte = chunk[at++]!;
          this.#bytes++;
          if (byte === LF) {
            if (this.#lineLength === 0) this.#complete();
            this.#lineLength = 0;
          } else if (byte !== CR) this.#lineLength++;
          break;
        }
      }
    }
  }

  #chunkSizeDone(): void {
    if (this.#remaining === 0) {
      this.#state = Body.Trailers;
      this.#lineLength = 0;
    } else this.#state = Body.ChunkData;
  }

  /** Reads a status line and headers from `chunk` at `start`; returns where the body starts. */
  #readHead(chunk: Buffer, start: number): number {
    let buffer = chunk;
    let from = start;
    let carried = 0;
    if (this.#pending) {
      carried = this.#pending.length;
      buffer = Buffer.concat([this.#pending, chunk.subarray(start)]);
      from = 0;
      this.#pending = null;
    }
    const end = buffer.indexOf('\r\n\r\n', Math.max(from, carried - 3), 'latin1');
    if (end < 0) {
      if (buffer.length - from > MAX_HEAD_BYTES) throw new ProtocolError('header too large');
      this.#pending = Buffer.from(buffer.subarray(from));
      return chunk.length;
    }
    if (this.#count === 0) throw new ProtocolError('an answer to no request');
    const bodyAt = end + 4;
    this.#bytes += bodyAt - from;
    this.#parseHead(buffer, from, end);
    // Back to the caller's chunk: the bytes of `buffer` after the head are the chunk's from here on.
    return start + (bodyAt - from) - carried;
  }

  #parseHead(buffer: Buffer, from: number, end: number): void {
    // "HTTP/1.x SSS"
    if (end - from < 12 || buffer[from] !== 72 /* H */ || buffer[from + 8] !== 32) throw new ProtocolError('bad status line');
    const status = (buffer[from + 9]! - 48) * 100 + (buffer[from + 10]! - 48) * 10 + (buffer[from + 11]! - 48);
    if (!(status >= 100 && status <= 999)) throw new ProtocolError('bad status');
    const http10 = buffer[from + 7] === 48; /* 0 */
    let contentLength = -1;
    let chunked = false;
    let close = http10;
    let line = buffer.indexOf(LF, from) + 1;
    while (line > 0 && line < end) {
      let next = buffer.indexOf(LF, line);
      if (next < 0 || next > end) next = end;
      const colon = buffer.indexOf(58 /* : */, line);
      if (colon > 0 && colon < next) {
        const name = colon - line;
        if (name === 14 && sameName(buffer, line, 'content-length')) {
          contentLength = Number(headerValue(buffer, colon, next));
          if (!Number.isSafeInteger(contentLength) || contentLength < 0) throw new ProtocolError('bad content-length');
        } else if (name === 17 && sameName(buffer, line, 'transfer-encoding')) {
          chunked = /chunked\s*$/i.test(headerValue(buffer, colon, next));
        } else if (name === 10 && sameName(buffer, line, 'connection')) {
          const value = headerValue(buffer, colon, next).toLowerCase();
          if (value.includes('close')) close = true;
          else if (value.includes('keep-alive')) close = false;
        }
      }
      line = next + 1;
    }
    if (status < 200 && status !== 101) {
      // An interim answer (100 Continue, 103 Early Hints): the final one follows.
      this.#state = Body.Head;
      return;
    }
    this.#status = status;
    // A connection per request closes after its answer, whatever the server would keep open.
    this.#closeAfter = close || this.#request.perRequest;
    if (this.#request.head || status === 204 || status === 304 || status === 101) this.#complete();
    else if (chunked) {
      this.#state = Body.ChunkSize;
      this.#remaining = 0;
    } else if (contentLength >= 0) {
      this.#remaining = contentLength;
      if (contentLength === 0) this.#complete();
      else this.#state = Body.Length;
    } else {
      this.#state = Body.UntilClose;
      this.#closeAfter = true;
    }
  }

  /** One answer is complete: settles the oldest request on the wire. */
  #complete(): void {
    const at = this.#head;
    const from = this.#from[at]!;
    const wrote = this.#wrote[at]!;
    const tag = this.#tag[at]!;
    // The connection's first request opened it: the connect is its to pay.
    const connectUs = this.#settled === 0 ? this.#connectUs : 0;
    // A request written before the connect was established waited from then.
    const waitingMs = this.#firstByteAt - (wrote > this.#connectedAt ? wrote : this.#connectedAt);
    this.#head = (at + 1) & (this.#from.length - 1);
    this.#count--;
    this.#settled++;
    const bytes = this.#bytes;
    this.#bytes = 0;
    this.#state = Body.Head;
    this.#firstByteAt = -1;
    if (this.#settled <= this.#expired) {
      this.#listener.lateAnswered?.(this);
      return;
    }
    this.#listener.answered(this, this.#status, bytes, from, tag, waitingMs > 0 ? waitingMs * 1000 : 0, connectUs);
  }
}

function hexValue(byte: number): number {
  if (byte >= 48 && byte <= 57) return byte - 48;
  const lower = byte | 0x20;
  if (lower >= 97 && lower <= 102) return lower - 87;
  return -1;
}

/** Case-insensitive match of a header name (given in lower case) at `at`. */
function sameName(buffer: Buffer, at: number, name: string): boolean {
  for (let i = 0; i < name.length; i++) if ((buffer[at + i]! | 0x20) !== name.charCodeAt(i)) return false;
  return true;
}

function headerValue(buffer: Buffer, colon: number, lineEnd: number): string {
  return buffer.toString('latin1', colon + 1, lineEnd).trim();
}
