// The host's wall clock at microsecond resolution: the process's time origin (epoch ms, read once at
// start) plus the monotonic time since. Date.now() has whole milliseconds only, too coarse for a
// clock offset bounded to a fraction of one; this is the clock the clock role answers with and the
// load engine waits for its start time with.

import { performance } from 'node:perf_hooks';

export function hostNowMs(): number {
  return performance.timeOrigin + performance.now();
}
