// JSON stored in a TEXT column, read back: a value that no longer parses reads as the fallback, so
// one damaged row is shown empty rather than failing the whole list it is in.

export function parseJsonColumn<T>(text: string | null, fallback: T): T {
  if (text === null) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}
