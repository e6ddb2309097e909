// Waiting for a state that announces itself by no event (a process gone, a remote host's files, an
// API's answer): checked again every `everyMs` until it holds, failing with `what` after the bound.
// The bound only limits the wait; how long it took is never what a test asserts.

export async function until<T>(check: () => T | Promise<T>, what: string, timeoutMs: number, everyMs = 50): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() >= deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
