// Ctrl-C and SIGTERM during `benchlab run`, as long-running CLIs treat them: the first asks for a
// clean stop (the caller cancels the plan: load stopped, server stopped, presets reverted) and the
// second means "now" (the caller exits at once). Listening replaces Node's default of dying on the
// first signal, so the hosts are never left half-done by one keypress.

export interface InterruptHandlers {
  first(signal: NodeJS.Signals): void;
  second(signal: NodeJS.Signals): void;
}

export interface SignalSource {
  on(signal: NodeJS.Signals, listener: (signal: NodeJS.Signals) => void): unknown;
  off(signal: NodeJS.Signals, listener: (signal: NodeJS.Signals) => void): unknown;
}

const SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];

/** Listens for SIGINT and SIGTERM until the returned function is called. */
export function watchInterrupts(handlers: InterruptHandlers, source: SignalSource = process): () => void {
  let count = 0;
  const listener = (signal: NodeJS.Signals) => {
    count++;
    if (count === 1) handlers.first(signal);
    else handlers.second(signal);
  };
  for (const signal of SIGNALS) source.on(signal, listener);
  return () => {
    for (const signal of SIGNALS) source.off(signal, listener);
  };
}
