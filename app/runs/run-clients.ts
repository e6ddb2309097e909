// A session's load clients as stored and as shown: what the session's config records of each client
// (host, weight, cores, engine, clock) and the live client a stored one is shown as (replay, and
// older sessions that recorded one client only in `clientHost`/`engine`). A stored step's degraded
// mark read back.

import { z } from 'zod';
import { ClockOffset } from './clock-offset.ts';
import { RecordedEngine } from './engine-choice.ts';
import { StepDegraded, type LiveClient } from './runs.ts';

/** One client as the session's `config.clients` records it. */
export const RecordedClient = z.object({
  index: z.number().int(),
  hostId: z.number(),
  hostName: z.string(),
  weight: z.number(),
  cores: z.number().int().nullable(),
  engine: RecordedEngine,
  clock: ClockOffset.nullable(),
});
export type RecordedClient = z.infer<typeof RecordedClient>;

/** The clients a session's config records; null when it records none (one client, or a session from before several). */
export function recordedClientsOf(config: Record<string, unknown>): RecordedClient[] | null {
  const recorded = z.array(RecordedClient).min(1).safeParse(config.clients);
  return recorded.success ? recorded.data : null;
}

/**
 * The live clients of a stored session, all `done`: from `config.clients`, else (one client) its
 * client by host id and `config.clientHost`.
 */
export function liveClientsOfConfig(config: Record<string, unknown>, clientHostId: number | null): LiveClient[] {
  const recorded = recordedClientsOf(config);
  if (recorded) return recorded.map((client) => liveClientOf(client, 'done'));
  const engine = RecordedEngine.safeParse(config.engine);
  const name = typeof config.clientHost === 'string' ? config.clientHost : 'client';
  return [liveClientOf({ index: 0, hostId: clientHostId ?? 0, hostName: name, weight: 1, cores: null, engine: engine.success ? engine.data : null, clock: null }, 'done')];
}

export function liveClientOf(client: Omit<RecordedClient, 'engine'> & { engine: RecordedEngine | null }, status: LiveClient['status']): LiveClient {
  return {
    index: client.index,
    hostId: client.hostId,
    name: client.hostName,
    weight: client.weight,
    cores: client.cores,
    connections: null,
    rate: null,
    engine: client.engine,
    clock: client.clock,
    status,
    problem: null,
  };
}

/** The degraded mark a stored step carries (a client lost during it); null when it has none. */
export function storedDegradedOf(step: Record<string, unknown>): StepDegraded | null {
  const degraded = StepDegraded.safeParse(step.degraded);
  return degraded.success ? degraded.data : null;
}
