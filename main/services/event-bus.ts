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
}
