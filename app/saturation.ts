// Is the client, not the server, the bottleneck? Judged per second and per run from the agent's
// client metrics: client CPU over 80 %, event-loop lag, achieved rate under 95 % of the target
// (open model), local ports exhausted. A saturated client measures itself, so the UI must say so.

import { z } from 'zod';
import type { ClientMetrics } from './agent-protocol.ts';

export const SATURATION_LIMITS = {
  /** Busy share of all client cores. */
  cpu: 0.8,
  /** p99 event-loop delay of a load thread: beyond this, send times and latencies are the client's. */
  eventLoopLagMs: 50,
  /** Achieved share of the target rate (open model). */
  achievedShare: 0.95,
  /** Share of the local port range in use (established + TIME_WAIT) that counts as exhausted. */
  portsShare: 0.95,
  /** A per-second condition must hold in at least this many seconds (or all of them) to be reported. */
  minSeconds: 2,
} as const;

export const SATURATION_KINDS = ['client-cpu', 'event-loop-lag', 'below-target', 'ports-exhausted'] as const;
export type SaturationKind = (typeof SATURATION_KINDS)[number];

export const SaturationFinding = z.object({
  kind: z.enum(SATURATION_KINDS),
  message: z.string(),
  /** Seconds in which it held (for the per-run verdict). */
  seconds: z.number().int(),
});
export type SaturationFinding = z.infer<typeof SaturationFinding>;

export interface SecondForSaturation {
  requests: number;
  durationMs: number;
  client: ClientMetrics;
}

function percent(share: number): string {
  return `${Math.round(share * 100)} %`;
}

/** The conditions that hold in one second. */
export function saturationInSecond(second: SecondForSaturation): SaturationKind[] {
  const kinds: SaturationKind[] = [];
  const { client } = second;
  if (client.cpu > SATURATION_LIMITS.cpu) kinds.push('client-cpu');
  if (client.eventLoopLagMs > SATURATION_LIMITS.eventLoopLagMs) kinds.push('event-loop-lag');
  const inUse = client.openSockets + client.timeWait;
  if (client.portErrors > 0 || (client.portRangeSize !== null && inUse >= SATURATION_LIMITS.portsShare * client.portRangeSize)) {
    kinds.push('ports-exhausted');
  }
  return kinds;
}

/**
 * The verdict over a run's measured seconds. `targetRate` (open model) adds the achieved-rate check
 * over the whole run, which is steadier than per second.
 */
export function judgeSaturation(seconds: readonly SecondForSaturation[], targetRate: number | null): SaturationFinding[] {
  if (seconds.length === 0) return [];
  const held = new Map<SaturationKind, number>();
  let worstCpu = 0;
  let worstLag = 0;
  let worstPorts = 0;
  let portErrors = 0;
  for (const second of seconds) {
    worstCpu = Math.max(worstCpu, second.client.cpu);
    worstLag = Math.max(worstLag, second.client.eventLoopLagMs);
    worstPorts = Math.max(worstPorts, second.client.openSockets + second.client.timeWait);
    portErrors += second.client.portErrors;
    for (const kind of saturationInSecond(second)) held.set(kind, (held.get(kind) ?? 0) + 1);
  }
  const needed = Math.min(SATURATION_LIMITS.minSeconds, seconds.length);
  const findings: SaturationFinding[] = [];
  const cpuSeconds = held.get('client-cpu') ?? 0;
  if (cpuSeconds >= needed) {
    findings.push({ kind: 'client-cpu', seconds: cpuSeconds, message: `client CPU above ${percent(SATURATION_LIMITS.cpu)} (up to ${percent(worstCpu)}) in ${cpuSeconds} s` });
  }
  const lagSeconds = held.get('event-loop-lag') ?? 0;
  if (lagSeconds >= needed) {
    findings.push({
      kind: 'event-loop-lag',
      seconds: lagSeconds,
      message: `the load threads' event loop lagged over ${SATURATION_LIMITS.eventLoopLagMs} ms (up to ${Math.round(worstLag)} ms) in ${lagSeconds} s`,
    });
  }
  const portSeconds = held.get('ports-exhausted') ?? 0;
  if (portSeconds > 0) {
    findings.push({
      kind: 'ports-exhausted',
      seconds: portSeconds,
      message:
        portErrors > 0
          ? `no free local port for ${portErrors} connection attempt${portErrors === 1 ? '' : 's'} (EADDRNOTAVAIL)`
          : `local ports nearly exhausted (${worstPorts} in use or in TIME_WAIT)`,
    });
  }
  if (targetRate !== null && targetRate > 0) {
    const requests = seconds.reduce((sum, second) => sum + second.requests, 0);
    const durationS = seconds.reduce((sum, second) => sum + second.durationMs, 0) / 1000;
    const achieved = durationS > 0 ? requests / durationS : 0;
    if (achieved < SATURATION_LIMITS.achievedShare * targetRate) {
      findings.push({
        kind: 'below-target',
        seconds: seconds.length,
        message: `achieved ${Math.round(achieved)} of the ${Math.round(targetRate)} requests/s target (${percent(achieved / targetRate)})`,
      });
    }
  }
  return findings;
}
