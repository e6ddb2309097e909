// The kinds a second's books are counted by, defined once for both engines: why a scheduled request
// got no answer (error kinds), why it was never sent (not-sent reasons) and the status classes of
// its answers. The TypeScript side reads these lists; the native engine's constants and its line's
// counts are generated from them (scripts/generate-engine-second.ts → agent/engine/second_gen.go,
// run by `npm run build:engine`; agent/engine/second-gen.test.ts fails when the two drift).

/**
 * Why a request that was scheduled got no answer, as the client saw it. `timeout`: no answer within
 * the request timeout; `refused`: the connection could not be opened; `reset`: the connection was
 * reset (RST, EPIPE) with the request on it; `closed`: the server closed the connection (FIN) with
 * the request on it; `other`: anything else (DNS, TLS, a malformed answer).
 */
export const ERROR_KINDS = ['timeout', 'refused', 'reset', 'closed', 'other'] as const;
export type ErrorKind = (typeof ERROR_KINDS)[number];
export type ErrorCounts = Record<ErrorKind, number>;

/**
 * Why a scheduled request was never sent. `pool-full`: every connection up to the maximum was busy
 * until the request's timeout ran out (open model); `step-ended`: the step's time was up before a
 * connection was free for it.
 */
export const NOT_SENT_REASONS = ['pool-full', 'step-ended'] as const;
export type NotSentReason = (typeof NOT_SENT_REASONS)[number];
export type NotSentCounts = Record<NotSentReason, number>;

/** An answer's status class, by its hundreds (1xx is the first). */
export const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'] as const;
export type StatusClass = (typeof STATUS_CLASSES)[number];
export type StatusCounts = Record<StatusClass, number>;

function zeroes<K extends string>(kinds: readonly K[]): Record<K, number> {
  return Object.fromEntries(kinds.map((kind) => [kind, 0])) as Record<K, number>;
}

export function emptyErrors(): ErrorCounts {
  return zeroes(ERROR_KINDS);
}

export function emptyNotSent(): NotSentCounts {
  return zeroes(NOT_SENT_REASONS);
}

export function emptyStatus(): StatusCounts {
  return zeroes(STATUS_CLASSES);
}

/**
 * The counts of a second's own, each a field of the agent's line and of the run second under its
 * name, stored in its own column (the name in snake_case), added across a client's threads and
 * across clients. `scheduled`: requests scheduled in the interval (slots intended in it, open model;
 * requests set out to send, closed); `requests`: answered requests (every status class); `bytes`:
 * the answers' bytes. A new count is a name here (and where an engine counts it, and its column's
 * migration): the line, the run second, the merges, the store and the native engine's line follow.
 */
export const SECOND_COUNTS = ['scheduled', 'requests', 'bytes'] as const;
export type SecondCount = (typeof SECOND_COUNTS)[number];
export type SecondCounts = Record<SecondCount, number>;

export function emptySecondCounts(): SecondCounts {
  return zeroes(SECOND_COUNTS);
}

/** Adds `counts` into `into`. */
export function addSecondCounts(into: SecondCounts, counts: Readonly<SecondCounts>): void {
  for (const name of SECOND_COUNTS) into[name] += counts[name];
}
