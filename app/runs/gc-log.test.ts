import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gcFiguresOf, parseGcPauses } from './gc-log.ts';

const MB = 1024 ** 2;

test("a GC log's pauses: G1's, Parallel's and Serial's with the heap after each; concurrent cycles and start lines are no pause", () => {
  const log = [
    '[0.013s][info][gc] Using G1',
    '[2.334s][info][gc] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 6M->3M(32M) 31.832ms',
    '[2.400s][info][gc,start] GC(1) Pause Young (Concurrent Start) (G1 Humongous Allocation)',
    '[2.410s][info][gc] GC(1) Pause Young (Concurrent Start) (G1 Humongous Allocation) 20M->18M(32M) 4.5ms',
    '[2.411s][info][gc] GC(2) Concurrent Mark Cycle',
    '[2.500s][info][gc] GC(2) Pause Remark 19M->19M(32M) 1.250ms',
    '[2.600s][info][gc] GC(2) Pause Cleanup 19M->19M(32M) 0.050ms',
    '[2.700s][info][gc] GC(2) Concurrent Mark Cycle 280.123ms',
    'GC(3) Pause Full (Ergonomics) 1G->512K(2G) 1.5s',
    '[3.0s][info][gc] GC(4) Pause Young (Allocation Failure) 1024K->' /* a line still being written */,
  ].join('\n');
  assert.deepEqual(parseGcPauses(log), [
    { ms: 31.832, heapAfterBytes: 3 * MB },
    { ms: 4.5, heapAfterBytes: 18 * MB },
    { ms: 1.25, heapAfterBytes: 19 * MB },
    { ms: 0.05, heapAfterBytes: 19 * MB },
    { ms: 1500, heapAfterBytes: 512 * 1024 },
  ]);
  assert.deepEqual(parseGcPauses('[1.0s][info][gc] GC(0) Pause Init Mark (unload classes) 0.123ms'), [{ ms: 0.123, heapAfterBytes: null }], 'a pause that gives no heap (Shenandoah) still counts');
});

test("an interval's pauses: how many, their total and the longest, the heap after the last that says it; an interval without one is zero", () => {
  assert.deepEqual(gcFiguresOf([{ ms: 3.5, heapAfterBytes: 40 * MB }, { ms: 10.25, heapAfterBytes: 30 * MB }, { ms: 0.1, heapAfterBytes: null }]), { gcPauses: 3, gcPauseMs: 13.85, gcLongestPauseMs: 10.25, heapAfterGcBytes: 30 * MB });
  assert.deepEqual(gcFiguresOf([]), { gcPauses: 0, gcPauseMs: 0, gcLongestPauseMs: 0 });
});
