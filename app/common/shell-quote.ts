// Quoting for POSIX sh: the only way values reach a remote command line.

/** Wraps text in single quotes so sh takes it literally, whatever it holds. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
