// Think time: the closed model's pause per connection before each request it sends (its first one
// too, so random pauses spread the connections' starts), as a user reads a page before the next
// click. Fixed, or uniform at random between a least and a most, optionally rounded to whole
// multiples of a unit. siege's `-d N` is `uniform` from 0 to N s, rounded to whole seconds when N ≥ 1
// (siege sleeps whole seconds then: `-d1` pauses 0 s or 1 s, half the time each); Gatling's
// `pause(min, max)` is `uniform` from min to max, its `pause(d)` is `fixed`. The pause is never in a
// latency: a request's time starts after it. Both engines draw the pause the same way
// (agent/engine/think.go mirrors `thinkPauseMs`).

import { z } from 'zod';

/** The longest pause one may ask for: an hour. */
export const MAX_THINK_MS = 3_600_000;

const Millis = (least: 'zero' | 'positive') =>
  z
    .number({ error: 'must be a number' })
    .refine((value) => (least === 'zero' ? value >= 0 : value > 0), least === 'zero' ? 'must not be negative' : 'must be greater than 0')
    .refine((value) => value <= MAX_THINK_MS, `must be at most ${MAX_THINK_MS} ms`);

export const FixedThinkTime = z
  .object({
    kind: z.literal('fixed'),
    /** Every pause lasts this long. */
    ms: Millis('positive'),
  })
  .strict();

export const UniformThinkTime = z
  .object({
    kind: z.literal('uniform'),
    /** The shortest pause (0 when absent). */
    minMs: Millis('zero').default(0),
    /** The longest pause: each is drawn uniformly between minMs and this. */
    maxMs: Millis('positive'),
    /** Round each pause to the nearest multiple of this (siege's `-d` of 1 s or more sleeps whole seconds: 1000). */
    roundToMs: Millis('positive').optional(),
  })
  .strict()
  .superRefine((think, ctx) => {
    if (think.minMs >= think.maxMs) ctx.addIssue({ code: 'custom', path: ['maxMs'], message: 'must be greater than the shortest pause' });
  });

export const ThinkTime = z.discriminatedUnion('kind', [FixedThinkTime, UniformThinkTime], { error: 'kind must be fixed or uniform' });
export type ThinkTime = z.output<typeof ThinkTime>;
export type ThinkTimeInput = z.input<typeof ThinkTime>;

/** One pause in ms, `random` giving [0, 1) as Math.random does. */
export function thinkPauseMs(think: ThinkTime, random: () => number = Math.random): number {
  if (think.kind === 'fixed') return think.ms;
  const drawn = think.minMs + random() * (think.maxMs - think.minMs);
  if (think.roundToMs === undefined) return drawn;
  // Half up, as siege's (unsigned)(x + .5).
  return Math.floor(drawn / think.roundToMs + 0.5) * think.roundToMs;
}

/** The mean pause in ms (the rounding of whole units keeps the mean of a range that starts at a multiple). */
export function meanThinkMs(think: ThinkTime): number {
  return think.kind === 'fixed' ? think.ms : (think.minMs + think.maxMs) / 2;
}

function duration(ms: number): string {
  if (ms >= 1000 && ms % 100 === 0) return `${ms / 1000} s`;
  return `${Number(ms.toFixed(1))} ms`;
}

/** In words, for the load's line: "think 1 s", "think 0–1 s, rounded to 1 s", "think 50–200 ms". */
export function describeThinkTime(think: ThinkTime): string {
  if (think.kind === 'fixed') return `think ${duration(think.ms)}`;
  const inSeconds = think.maxMs >= 1000 && think.minMs % 100 === 0 && think.maxMs % 100 === 0;
  const range = inSeconds ? `${think.minMs / 1000}–${think.maxMs / 1000} s` : `${Number(think.minMs.toFixed(1))}–${Number(think.maxMs.toFixed(1))} ms`;
  return `think ${range}${think.roundToMs !== undefined ? `, rounded to ${duration(think.roundToMs)}` : ''}`;
}
