// What the server's CPU profile costs, on the `profiles` lab: the Node template and one JVM
// template (Jetty), each loaded on /hello with the profile on and off in interleaved rounds (on,
// off, on, off, …), their requests/s and p99 side by side as ratios; and the stored size of a 60 s
// run's profile per runtime (the folded text, compressed, as the store keeps it).

import type { Profile, ProfileEntry } from '../app/profiles/profiles.ts';
import type { LiveRun, StoredRun } from '../app/runs/runs.ts';
import { openLabBackend, type LabBackend } from '../tests/support/lab-backend.ts';
import { labSkipReason } from '../tests/support/lab-hosts.ts';

const INSTANCE = 'profiles';
const PORT = 18492;
export const PROFILE_COST_LOAD = { connections: 8, durationS: 5, warmupS: 1 } as const;
/** Interleaved pairs of runs (profile on, then off) per template. */
export const PROFILE_COST_ROUNDS = 3;
export const PROFILE_SIZE_RUN_S = 60;

export interface ProfileCostRow {
  template: string;
  /** Median requests/s and p99 (µs) of the runs with the profile on and off. */
  on: { rps: number; p99Us: number };
  off: { rps: number; p99Us: number };
  rounds: Array<{ on: number; off: number }>;
  /** A 60 s run's stored profile: bytes, samples and distinct stacks. */
  size: { bytes: number; samples: number; stacks: number; tool: string } | null;
}

export interface ProfileCost {
  skipped: string | null;
  rows: ProfileCostRow[];
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN;
}

async function run(lab: LabBackend, target: string, profileServer: boolean, durationS: number, warmupS: number): Promise<{ sessionId: number; stored: StoredRun }> {
  const started = await lab.ok<LiveRun>('runs.start', {
    clientHostId: lab.clientId,
    serverHostId: lab.serverId,
    profile: { target, request: { path: '/hello' }, warmupS, load: { model: 'closed', connections: PROFILE_COST_LOAD.connections, durationS }, profileServer },
  });
  const live = await lab.services.runs.finished(started.sessionId);
  if (live.status !== 'completed') throw new Error(`the session ended ${live.status}: ${live.message ?? ''}`);
  const [stored] = await lab.ok<StoredRun[]>('runs.list', { sessionId: live.sessionId });
  if (!stored?.summary) throw new Error('the session stored no summary');
  return { sessionId: live.sessionId, stored };
}

async function template(lab: LabBackend, templateId: string, variant: string): Promise<ProfileCostRow> {
  await lab.call('templates.stop', { hostId: lab.serverId });
  const deployment = await lab.ok<{ url: string }>('templates.deploy', { hostId: lab.serverId, templateId, variant, port: PORT });
  const target = deployment.url.replace(/\/$/, '');
  // One unmeasured run first: the JIT and caches warm for both sides alike.
  await run(lab, target, false, 3, 0);
  const on: StoredRun[] = [];
  const off: StoredRun[] = [];
  for (let round = 0; round < PROFILE_COST_ROUNDS; round++) {
    on.push((await run(lab, target, true, PROFILE_COST_LOAD.durationS, PROFILE_COST_LOAD.warmupS)).stored);
    off.push((await run(lab, target, false, PROFILE_COST_LOAD.durationS, PROFILE_COST_LOAD.warmupS)).stored);
  }
  const figures = (runs: StoredRun[]) => ({ rps: median(runs.map((one) => one.summary!.requestsPerSecond)), p99Us: median(runs.map((one) => one.summary!.p99Us ?? Number.NaN)) });
  const long = await run(lab, target, true, PROFILE_SIZE_RUN_S, 0);
  const [entry] = await lab.ok<ProfileEntry[]>('profiles.list', { sessionId: long.sessionId });
  const profile = entry?.status === 'captured' ? await lab.ok<Profile>('profiles.get', { runId: entry.runId }) : null;
  return {
    template: `${templateId} · ${variant}`,
    on: figures(on),
    off: figures(off),
    rounds: on.map((one, index) => ({ on: one.summary!.requestsPerSecond, off: off[index]!.summary!.requestsPerSecond })),
    size: profile ? { bytes: profile.facts.storedBytes, samples: profile.facts.samples, stacks: profile.facts.stacks, tool: profile.facts.tool } : null,
  };
}

export async function benchProfileCost(): Promise<ProfileCost> {
  const skipped = labSkipReason();
  if (skipped) return { skipped, rows: [] };
  const lab = await openLabBackend(INSTANCE, 'benchlab-bench-profiles-', { sharedCaches: true });
  try {
    return { skipped: null, rows: [await template(lab, 'node', 'async'), await template(lab, 'jetty', 'blocking')] };
  } finally {
    await lab.call('templates.stop', { hostId: lab.serverId });
    await lab.close();
  }
}
