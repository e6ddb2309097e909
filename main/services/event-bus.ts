// The back end's typed event bus: services publish contract events, transports forward them.

import { EventEmitter } from 'node:events';
import type { EventName, EventPayload } from '../../app/contract.ts';

export class EventBus {
  readonly #emitter = new EventEmitter();

  constructor() {
    // Every open window or WebSocket subscribes once per event; more than 10 is normal.
    this.#emitter.setMaxListeners(0);
  }

  publish<E extends EventName>(event: E, payload: EventPayload<E>): void {
    this.#emitter.emit(event, payload);
  }

  subscribe<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void {
    this.#emitter.on(event, listener);
    return () => this.#emitter.off(event, listener);
  }

  /**
   * Tells `onCount` how many listeners an event has, now and after each change: a producer that
   * has to poll for its news (store/store-watch.ts) polls only while someone listens.
   */
  watchListeners(event: EventName, onCount: (count: number) => void): () => void {
    // 'newListener' comes before the listener is added, 'removeListener' after it is removed.
    const added = (name: string | symbol) => {
      if (name === event) onCount(this.#emitter.listenerCount(event) + 1);
    };
    const removed = (name: string | symbol) => {
      if (name === event) onCount(this.#emitter.listenerCount(event));
    };
    this.#emitter.on('newListener', added);
    this.#emitter.on('removeListener', removed);
    onCount(this.#emitter.listenerCount(event));
    return () => {
      this.#emitter.off('newListener', added);
      this.#emitter.off('removeListener', removed);
    };
  }
}
