// The IPC channel names shared by the Electron main process and the preload. Four channels carry the
// whole contract: one request/response channel and three for events.

/** invoke(name, args) → `{ ok: true, result } | { ok: false, error: { code, message } }` */
export const CALL_CHANNEL = 'benchlab:call';
/** renderer → main: start or stop forwarding one contract event to this window. */
export const SUBSCRIBE_CHANNEL = 'benchlab:subscribe';
export const UNSUBSCRIBE_CHANNEL = 'benchlab:unsubscribe';
/** main → renderer: (eventName, payload) for events the window subscribed to. */
export const EVENT_CHANNEL = 'benchlab:event';
