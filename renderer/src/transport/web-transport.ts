// Web mode's half of the contract: the same calls and events as Electron IPC, over one WebSocket
// that reconnects by itself. Pending calls fail with `disconnected` rather than hang.

import type { EventName, RequestName, TransportCall } from '../../../app/contract.ts';
import { ApiError, isApiErrorShape } from '../../../app/common/errors.ts';
import { MAX_PAYLOAD_BYTES, utf8ByteLength } from '../../../app/common/safe-json.ts';
import { WEB_SOCKET_PATH, type ClientMessage, type ServerMessage } from '../../../app/common/wire.ts';

export type ConnectionState = 'connecting' | 'connected' | 'reconnecting';

interface Pending {
  resolve: (value: unknown) => void;
  reject: (reason: ApiError) => void;
}

export interface WebTransport extends TransportCall {
  onStateChange(listener: (state: ConnectionState) => void): () => void;
}

export function createWebTransport(location: Location = window.location): WebTransport {
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${WEB_SOCKET_PATH}`;
  const pending = new Map<number, Pending>();
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const stateListeners = new Set<(state: ConnectionState) => void>();
  const outbox: string[] = [];
  let nextId = 1;
  let socket: WebSocket;
  let retryDelay = 250;
  let state: ConnectionState = 'connecting';

  const setState = (next: ConnectionState) => {
    state = next;
    stateListeners.forEach((listener) => listener(next));
  };
  const send = (message: ClientMessage) => {
    const text = JSON.stringify(message);
    if (socket.readyState === WebSocket.OPEN) socket.send(text);
    else outbox.push(text);
  };

  function connect(): void {
    socket = new WebSocket(url);
    socket.onopen = () => {
      retryDelay = 250;
      setState('connected');
      for (const event of listeners.keys()) socket.send(JSON.stringify({ type: 'subscribe', event } satisfies ClientMessage));
      for (const text of outbox.splice(0)) socket.send(text);
    };
    socket.onmessage = (message: MessageEvent<string>) => {
      const data = JSON.parse(message.data) as ServerMessage;
      if (data.type === 'event') {
        listeners.get(data.event)?.forEach((listener) => listener(data.payload));
      } else if (data.type === 'result' && data.id !== null) {
        const call = pending.get(data.id);
        pending.delete(data.id);
        if (!call) return;
        if (data.ok) call.resolve(data.result);
        else call.reject(new ApiError(isApiErrorShape(data.error) ? data.error.code : 'internal', data.error.message, data.error.details));
      }
    };
    socket.onclose = () => {
      for (const call of pending.values()) call.reject(new ApiError('disconnected', 'lost the connection to Benchlab; retrying'));
      pending.clear();
      setState('reconnecting');
      setTimeout(connect, retryDelay);
      retryDelay = Math.min(retryDelay * 2, 5000);
    };
  }

  connect();

  return {
    call(name: RequestName, args: unknown) {
      const id = nextId++;
      const message: ClientMessage = { type: 'call', id, name, args };
      const text = JSON.stringify(message);
      if (utf8ByteLength(text) > MAX_PAYLOAD_BYTES) {
        return Promise.reject(new ApiError('too_large', `this request is larger than ${MAX_PAYLOAD_BYTES} bytes`));
      }
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        send(message);
      });
    },
    subscribe(event: EventName, listener: (payload: unknown) => void) {
      let set = listeners.get(event);
      if (!set) {
        set = new Set();
        listeners.set(event, set);
        send({ type: 'subscribe', event });
      }
      set.add(listener);
      return () => {
        set.delete(listener);
        if (set.size === 0) {
          listeners.delete(event);
          send({ type: 'unsubscribe', event });
        }
      };
    },
    onStateChange(listener) {
      stateListeners.add(listener);
      listener(state); // the socket may have opened before the UI subscribed
      return () => stateListeners.delete(listener);
    },
  };
}
