// A client host's clock offset to Benchlab's, estimated from ping/pong probes the NTP way. Each
// probe has Benchlab's send and receive times and the host's time read in between; the host read
// its clock somewhere inside that round trip, so the offset is bounded by half the round trip
// whatever the asymmetry of the two directions. The probe with the smallest round trip gives the
// tightest bound, so it is the one kept.

import { z } from 'zod';

export const ClockOffset = z
  .object({
    /** The host's clock minus Benchlab's: hostTime = benchlabTime + offsetMs. */
    offsetMs: z.number(),
    /** Round trip of the probe kept (the smallest). */
    rttMs: z.number(),
    /** ± bound on offsetMs: half the kept round trip, plus the clocks' resolution. */
    uncertaintyMs: z.number(),
    probes: z.number().int(),
    /**
     * From asking the host to start the agent to its first answer, in ms: that host's setup time,
     * which the coordinated start's lead grows with (start-lead.ts). Absent in sessions before it.
     */
    readyMs: z.number().optional(),
  })
  .strict();
export type ClockOffset = z.infer<typeof ClockOffset>;

/** Above this the offset is not bounded well enough for a coordinated start: reported (warn) in the session. */
export const CLOCK_UNCERTAINTY_LIMIT_MS = 5;

/**
 * Both sides read their clocks at microsecond resolution (performance.timeOrigin + performance.now()),
 * and the host's reading may fall a step either way of the true instant: one microsecond per side.
 */
export const CLOCK_RESOLUTION_MS = 0.002;

/** One round trip: Benchlab's send and receive times and the host's time read in between (epoch ms). */
export interface ClockProbe {
  sentMs: number;
  hostMs: number;
  receivedMs: number;
}

/** The offset from the probe with the smallest round trip; throws when no probe is usable. */
export function estimateClockOffset(probes: readonly ClockProbe[]): ClockOffset {
  let best: ClockProbe | null = null;
  for (const probe of probes) {
    const usable = [probe.sentMs, probe.hostMs, probe.receivedMs].every(Number.isFinite) && probe.receivedMs >= probe.sentMs;
    if (usable && (!best || probe.receivedMs - probe.sentMs < best.receivedMs - best.sentMs)) best = probe;
  }
  if (!best) throw new Error('no clock probe came back, so the offset cannot be estimated');
  const rttMs = best.receivedMs - best.sentMs;
  return {
    offsetMs: best.hostMs - (best.sentMs + best.receivedMs) / 2,
    rttMs,
    uncertaintyMs: rttMs / 2 + CLOCK_RESOLUTION_MS,
    probes: probes.length,
  };
}
