// A stored profile as the bottleneck verdict reads it (app/runs/bottleneck-explain.ts): its samples
// of work and the frame with the most samples on its own (self time, over every place it is called
// from — the first row of the flame graph's top-frames table). One pass over the folded lines' leaves,
// no tree: Compare reads every compared run's profile for its verdict.

import type { BottleneckProfile } from '../runs/bottleneck-explain.ts';
import { foldedLeaves } from './profiles.ts';

/** V8's samples of a loop with nothing to do: no work, so neither a hotspot nor part of the share. */
const IDLE = new Set(['(idle)']);
/** V8's samples in code it cannot name (native code, the engine itself): work, but no frame to point at. */
const UNNAMED = new Set(['(program)']);

export function profileHotspot(folded: string, tool: string): BottleneckProfile {
  const self = new Map<string, number>();
  let busySamples = 0;
  for (const { leaf, count } of foldedLeaves(folded)) {
    if (IDLE.has(leaf)) continue;
    busySamples += count;
    if (!UNNAMED.has(leaf)) self.set(leaf, (self.get(leaf) ?? 0) + count);
  }
  let hottest: BottleneckProfile['hottest'] = null;
  for (const [name, samples] of self) if (!hottest || samples > hottest.self || (samples === hottest.self && name < hottest.name)) hottest = { name, self: samples };
  return { tool, busySamples, hottest };
}
