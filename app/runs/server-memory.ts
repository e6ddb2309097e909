// The server's memory over a run: the resident set (RSS) of the server process and its children, as
// the server agent read it each second (`processRssBytes`), reduced to its lowest, its highest and
// its last reading — what a leak or a cache filling up shows. Null when no second carried a reading
// (no server agent, or the process was not found).

import type { SecondServerMetrics } from './agent-protocol.ts';
import type { ServerMemory } from './run-summary-schema.ts';

export class ServerMemoryTally {
  #min = Infinity;
  #max = -Infinity;
  #end: { second: number; bytes: number } | null = null;

  /** One second's server reading; several clients' seconds of one index carry the same one. */
  add(second: number, serverMetrics: Readonly<SecondServerMetrics> | null): void {
    const bytes = serverMetrics?.processRssBytes;
    if (typeof bytes !== 'number' || !Number.isFinite(bytes) || bytes <= 0) return;
    this.#min = Math.min(this.#min, bytes);
    this.#max = Math.max(this.#max, bytes);
    if (this.#end === null || second >= this.#end.second) this.#end = { second, bytes };
  }

  result(): ServerMemory | null {
    return this.#end === null ? null : { minBytes: this.#min, maxBytes: this.#max, endBytes: this.#end.bytes };
  }
}

/** The server's memory from a run's stored seconds (warm-up left out), for a summary stored before it was kept. */
export function serverMemoryOf(seconds: Iterable<{ second: number; phase: string; serverMetrics: Readonly<SecondServerMetrics> | null }>): ServerMemory | null {
  const tally = new ServerMemoryTally();
  for (const second of seconds) if (second.phase !== 'warmup') tally.add(second.second, second.serverMetrics);
  return tally.result();
}

/** Why a run has no server memory, in the words every surface uses. */
export const MEMORY_MISSING = {
  /** No second carried a server reading: no server host was sampled (or an imported run). */
  noReadings: 'no server readings',
  /** The server host was sampled, but no process was found on the target's port. */
  noProcess: 'server process not found',
} as const;

/**
 * A stored run's server memory, or why there is none. The summary's own figures when it kept them;
 * else (a summary stored before it kept them, a run cut off before its summary) the measured
 * seconds' readings, as Compare and the export read them — every run stored with a server host
 * sampled has them; and when those hold none, which reason it is.
 */
export function storedServerMemory(
  summary: { serverMemory?: ServerMemory | null } | null | undefined,
  seconds: () => Iterable<{ second: number; phase: string; serverMetrics: Readonly<SecondServerMetrics> | null }>,
): ServerMemory | string {
  if (summary?.serverMemory) return summary.serverMemory;
  const read = [...seconds()].filter((second) => second.phase !== 'warmup');
  const memory = serverMemoryOf(read);
  if (memory) return memory;
  return read.some((second) => second.serverMetrics !== null) ? MEMORY_MISSING.noProcess : MEMORY_MISSING.noReadings;
}
