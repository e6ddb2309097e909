// A JVM's GC pauses from its unified GC log (`-Xlog:gc`), one line per collection:
//   [12.345s][info][gc] GC(7) Pause Young (Normal) (G1 Evacuation Pause) 24M->3M(256M) 2.345ms
// Only the lines naming a pause that ended, with its duration, count (G1's and Parallel's young, mixed,
// full, remark and cleanup pauses, Serial's, Shenandoah's): a concurrent cycle ("Concurrent Mark
// Cycle 12.3ms") runs beside the application and is no pause, and a pause's start line has no duration.
// The heap after it is the middle figure of `before->after(capacity)`.

/** One pause as the log says it. */
export interface GcPause {
  ms: number;
  /** Heap in use after it (bytes); null when the line does not say. */
  heapAfterBytes: number | null;
}

const PAUSE = /\bGC\(\d+\) Pause\b.*?(?:\s(\d+(?:\.\d+)?)([BKMGT])->(\d+(?:\.\d+)?)([BKMGT])\((\d+(?:\.\d+)?)([BKMGT])\))?\s(\d+(?:\.\d+)?)(ms|s)\s*$/;
const UNIT_BYTES: Record<string, number> = { B: 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3, T: 1024 ** 4 };

/** The pauses of a stretch of log text, in order; a partial last line is the caller's to keep for later. */
export function parseGcPauses(text: string): GcPause[] {
  const pauses: GcPause[] = [];
  for (const line of text.split('\n')) {
    const match = PAUSE.exec(line);
    if (!match) continue;
    const duration = Number(match[7]);
    pauses.push({
      ms: match[8] === 's' ? duration * 1000 : duration,
      heapAfterBytes: match[3] === undefined ? null : Math.round(Number(match[3]) * UNIT_BYTES[match[4]!]!),
    });
  }
  return pauses;
}

/** The figures of an interval's pauses: how many, their total and the longest (ms, to the µs), the heap after the last. */
export function gcFiguresOf(pauses: readonly GcPause[]): { gcPauses: number; gcPauseMs: number; gcLongestPauseMs: number; heapAfterGcBytes?: number } {
  const round = (ms: number) => Math.round(ms * 1000) / 1000;
  const heap = pauses.findLast((pause) => pause.heapAfterBytes !== null)?.heapAfterBytes;
  return {
    gcPauses: pauses.length,
    gcPauseMs: round(pauses.reduce((sum, pause) => sum + pause.ms, 0)),
    gcLongestPauseMs: round(pauses.reduce((longest, pause) => Math.max(longest, pause.ms), 0)),
    ...(heap !== undefined && heap !== null ? { heapAfterGcBytes: heap } : {}),
  };
}
