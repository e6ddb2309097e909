// The front doors' requests while the back end lives: each one admitted is tracked until it
// settles, and once shutdown begins every new one is refused, so shutdown can wait for what it
// admitted before it closes the store.

import { ApiError } from '../../app/common/errors.ts';

export class RequestGate {
  #closed = false;
  readonly #inFlight = new Map<Promise<unknown>, string>();

  /** Whether shutdown has begun. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Runs one request, or refuses it once shutdown has begun. */
  admit<T>(name: string, request: () => Promise<T>): Promise<T> {
    if (this.#closed) return Promise.reject(new ApiError('unavailable', 'Benchlab is shutting down: start it again to go on'));
    const running = request();
    this.#inFlight.set(running, name);
    const forget = () => this.#inFlight.delete(running);
    running.then(forget, forget);
    return running;
  }

  /** Refuses every request from now on. */
  close(): void {
    this.#closed = true;
  }

  /** The requests admitted and not yet settled, each with its name. */
  inFlight(): Array<{ name: string; settled: Promise<unknown> }> {
    return [...this.#inFlight].map(([settled, name]) => ({ name, settled }));
  }
}
