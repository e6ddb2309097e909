// Waiting in tests without fixed sleeps: for a state that announces itself by no event (a process
// gone, a remote host's files, an API's answer), checked again every `everyMs` until it holds; and
// for an event, bounded. Each fails with `what` after its bound; the bound only limits the wait,
// how long it took is never what a test asserts.

export async function until<T>(check: () => T | Promise<T>, what: string, timeoutMs: number, everyMs = 50): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() >= deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** An event's promise, bounded: fails with `what` if it has not come within `timeoutMs`. */
export async function within<T>(event: Promise<T>, what: string, timeoutMs: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)), timeoutMs);
  });
  try {
    return await Promise.race([event, late]);
  } finally {
    clearTimeout(timer);
  }
}
