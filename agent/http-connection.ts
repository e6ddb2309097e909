// One keep-alive HTTP connection of a load thread, over autocannon's own HTTP client (one per
// connection, as autocannon runs them). Two modes:
//  - eager (closed model): autocannon sends the next request as soon as an answer arrives, with
//    its pipelining; latency is its per-request hrtime duration, kept here in µs (autocannon's own
//    histograms would truncate it to whole ms);
//  - paced (open model): the connection sends only when the schedule hands it a request. This is
//    the one place that reaches into autocannon's client internals (`_doRequest`), so a change of
//    autocannon shows up here and in this folder's tests, nowhere else.

import Client, { type AutocannonClient } from 'autocannon/lib/httpClient.js';
import type { RequestSpec } from '../app/load-profile.ts';
import type { ErrorKind } from '../app/run-summary.ts';
import { errorKindOf } from './interval-recorder.ts';

export interface Target {
  protocol: 'http' | 'https';
  hostname: string;
  port: number;
}

export interface ConnectionListener {
  /** `latencyMs` is autocannon's measurement from the write of the request (service time). */
  response(connection: HttpConnection, statusCode: number, bytes: number, latencyMs: number): void;
  /** Counted once per failed request (or failed connection attempt in eager mode). */
  failure(connection: HttpConnection, kind: ErrorKind, cause: unknown): void;
  sent(connection: HttpConnection): void;
  /** Eager mode with a request budget: this connection has used it up. */
  done?(connection: HttpConnection): void;
}

export interface ConnectionOptions {
  target: Target;
  request: RequestSpec;
  paced: boolean;
  pipelining?: number;
  /** Eager mode: stop after this many requests. */
  budget?: number | undefined;
}

export class HttpConnection {
  readonly #client: AutocannonClient;
  readonly #paced: boolean;
  readonly #listener: ConnectionListener;
  #closed = false;
  /** Eager mode with a request count: sending stops once reqsMade reaches this. */
  #sendUntil: number | undefined;
  /** Paced mode: intended send time (epoch ms) of the request in flight, or null when idle. */
  inFlightSince: number | null = null;

  constructor(options: ConnectionOptions, listener: ConnectionListener) {
    this.#paced = options.paced;
    this.#listener = listener;
    this.#sendUntil = options.budget;
    const { target, request } = options;
    this.#client = new Client({
      hostname: target.hostname,
      port: target.port,
      protocol: `${target.protocol}:`,
      path: request.path,
      method: request.method,
      headers: request.headers,
      body: request.body,
      pipelining: options.paced ? 1 : (options.pipelining ?? 1),
      timeout: request.timeoutMs / 1000,
      // Runs inside the constructor, before the first connect: listeners see every event.
      setupClient: (client) => {
        // autocannon calls _doRequest after connecting and after each answer. Paced, only the
        // schedule may send (through send()); with a request count, sending stops at the count but
        // the connection stays open for the answers still due (autocannon's own responseMax would
        // close it with pipelined requests unanswered).
        client._doRequest = () => {
          if (!this.#paced && (this.#sendUntil === undefined || client.reqsMade < this.#sendUntil)) Client.prototype._doRequest.call(client);
        };
        client.on('request', () => listener.sent(this));
        client.on('response', (statusCode: number, bytes: number, durationMs: number) => {
          listener.response(this, statusCode, bytes, durationMs);
          this.#closeWhenCountDone();
        });
        client.on('timeout', () => {
          // autocannon's timer also fires on an idle paced connection: only a request in flight can time out.
          if (!this.#paced || this.inFlightSince !== null) listener.failure(this, 'timeout', null);
          this.#closeWhenCountDone();
        });
        client.on('connError', (error: unknown) => {
          // Drop what autocannon still counts as in flight, so the next answer is not timed from a dead request.
          client.pipelinedRequests.clear();
          if (this.#paced) {
            const wasBusy = this.inFlightSince !== null;
            // A paced connection is not reconnected in a tight loop: the pool opens a new one when needed.
            this.close();
            if (wasBusy) listener.failure(this, errorKindOf(error), error);
          } else {
            listener.failure(this, errorKindOf(error), error);
            this.#closeWhenCountDone();
          }
        });
      },
    });
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Eager mode: send `more` further requests from now on, then close once they are answered. */
  setBudget(more: number): void {
    this.#sendUntil = this.#client.reqsMade + more;
  }

  /** Paced mode: send one request now, for a slot intended at `intendedAt`. */
  send(intendedAt: number): void {
    this.inFlightSince = intendedAt;
    Client.prototype._doRequest.call(this.#client);
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#client.destroy();
  }

  #closeWhenCountDone(): void {
    if (this.#closed || this.#sendUntil === undefined || this.#client.reqsMade < this.#sendUntil) return;
    if (this.#client.pipelinedRequests.size() > 0) return;
    this.close();
    this.#listener.done?.(this);
  }
}
