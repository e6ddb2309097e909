// What the server's CPU profile costs, on the `profiles` lab: the Node template and one JVM
// template (Jetty), each loaded on /hello with the profile on and off, and the stored size of a 60 s
// run's profile per runtime (the folded text, compressed, as the store keeps it).
//
// The cost sought (at most 2 %) is far below what one run differs from the next on a shared 2-core
// machine, so the runs are arranged to measure it rather than the noise: the client's namespace is
// pinned to one core and the server's (with the profiler it starts there) to the other, so the
// profiler's work lands on the server as it would on a host of its own; the runs go in ABBA order
// (on off off on, on off off on …), so a drift of the machine's load weighs on both sides alike; each
// adjacent on/off pair gives one ratio, and the adjacent same-same pairs (off off, on on) give the
// noise floor: how far two runs differ with nothing changed. A cost smaller than that floor is not
// measurable here, and the bench says so instead of printing a verdict.

import { execFileSync } from 'node:child_process';
import { median } from '../app/common/median.ts';
import type { Profile, ProfileEntry } from '../app/profiles/profiles.ts';
import type { LiveRun, StoredRun } from '../app/runs/runs.ts';
import { labLayout } from '../tests/lab/layout.ts';
import { openLabBackend, type LabBackend } from '../tests/support/lab-backend.ts';
import { labSkipReason } from '../tests/support/lab-hosts.ts';
import { GENERATOR_CORE, SERVER_CORE } from './pinned-time.ts';

const INSTANCE = 'profiles';
const PORT = 18492;
export const PROFILE_COST_LOAD = { connections: 8, durationS: 5, warmupS: 1 } as const;
/** ABBA blocks (on off off on) per template: twice as many on/off pairs, and the same-same pairs between them. */
export const PROFILE_COST_BLOCKS = 3;
export const PROFILE_SIZE_RUN_S = 60;

interface Figures {
  rps: number;
  p99Us: number;
}

/** Medians of per-pair ratios (first over second) and their spread. */
export interface RatioFigures {
  rps: number;
  p99: number;
  /** The median distance from 1 of the ratios, as a share: how far a pair typically differs. */
  rpsSpread: number;
  p99Spread: number;
}

export interface ProfileCostRow {
  template: string;
  /** On over off, from adjacent pairs. */
  onOff: RatioFigures;
  /** Same over same (off off, on on), from adjacent pairs: the noise floor. */
  sameSame: RatioFigures;
  runs: Array<{ profile: boolean } & Figures>;
  /** A 60 s run's stored profile: bytes, samples and distinct stacks. */
  size: { bytes: number; samples: number; stacks: number; tool: string } | null;
}

export interface ProfileCost {
  skipped: string | null;
  rows: ProfileCostRow[];
}

/** The run order: `blocks` times on, off, off, on. */
export function abbaOrder(blocks: number): boolean[] {
  return Array.from({ length: blocks }, () => [true, false, false, true]).flat();
}

/** Each adjacent pair of runs as a ratio, on over off where they differ, first over second where alike. */
export function pairRatios(runs: ReadonlyArray<{ profile: boolean } & Figures>): { onOff: RatioFigures; sameSame: RatioFigures } {
  const onOff: Array<[number, number]> = [];
  const sameSame: Array<[number, number]> = [];
  for (let index = 1; index < runs.length; index++) {
    const [first, second] = [runs[index - 1]!, runs[index]!];
    if (first.profile === second.profile) sameSame.push([first.rps / second.rps, first.p99Us / second.p99Us]);
    else {
      const [on, off] = first.profile ? [first, second] : [second, first];
      onOff.push([on.rps / off.rps, on.p99Us / off.p99Us]);
    }
  }
  const figures = (pairs: Array<[number, number]>): RatioFigures => ({
    rps: median(pairs.map(([rps]) => rps)),
    p99: median(pairs.map(([, p99]) => p99)),
    rpsSpread: median(pairs.map(([rps]) => Math.abs(1 - rps))),
    p99Spread: median(pairs.map(([, p99]) => Math.abs(1 - p99))),
  });
  return { onOff: figures(onOff), sameSame: figures(sameSame) };
}

/** Every process (all threads) of the instance's client on the generator's core and of its server on the other. */
function pinLab(): void {
  const layout = labLayout(INSTANCE);
  for (const [host, core] of [[layout.hosts.client, GENERATOR_CORE], [layout.hosts.server, SERVER_CORE]] as const) {
    const pids = execFileSync('ip', ['netns', 'pids', host.namespace], { encoding: 'utf8' }).split('\n').filter((pid) => /^\d+$/.test(pid));
    for (const pid of pids) {
      try {
        execFileSync('taskset', ['-a', '-p', '-c', core, pid], { stdio: 'ignore' });
      } catch {
        // The process ended between the listing and the pinning.
      }
    }
  }
}

async function run(lab: LabBackend, target: string, profileServer: boolean, durationS: number, warmupS: number): Promise<{ sessionId: number; stored: StoredRun }> {
  pinLab();
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
  // Unmeasured runs first, one of each: the JIT and caches warm, and a V8 or JVM meets its first
  // profiler (its code-event logging, the inspector's thread) before a measured run does.
  // Ten seconds each: a JVM's first measured run was still well below its later ones after three.
  await run(lab, target, true, 10, 0);
  await run(lab, target, false, 10, 0);
  const runs: ProfileCostRow['runs'] = [];
  for (const profile of abbaOrder(PROFILE_COST_BLOCKS)) {
    const { summary } = (await run(lab, target, profile, PROFILE_COST_LOAD.durationS, PROFILE_COST_LOAD.warmupS)).stored;
    runs.push({ profile, rps: summary!.requestsPerSecond, p99Us: summary!.p99Us ?? Number.NaN });
  }
  const long = await run(lab, target, true, PROFILE_SIZE_RUN_S, 0);
  const [entry] = await lab.ok<ProfileEntry[]>('profiles.list', { sessionId: long.sessionId });
  const profile = entry?.status === 'captured' ? await lab.ok<Profile>('profiles.get', { runId: entry.runId }) : null;
  return {
    template: `${templateId} · ${variant}`,
    ...pairRatios(runs),
    runs,
    size: profile ? { bytes: profile.facts.storedBytes, samples: profile.facts.samples, stacks: profile.facts.stacks, tool: profile.facts.tool } : null,
  };
}

/** The goal: at most 2 % fewer requests/s and at most 2 % more p99 with the profile on. */
export const PROFILE_COST_GOAL = 0.02;

/**
 * Whether the goal is met, missed, or beyond what this machine can tell: a miss smaller than the
 * noise floor (two alike runs apart by as much) is not a measured cost.
 */
export function profileCostVerdict(row: Pick<ProfileCostRow, 'onOff' | 'sameSame'>): 'met' | 'missed' | 'within the noise' {
  const rpsLoss = 1 - row.onOff.rps;
  const p99Gain = row.onOff.p99 - 1;
  if (rpsLoss <= PROFILE_COST_GOAL && p99Gain <= PROFILE_COST_GOAL) return 'met';
  if (rpsLoss <= Math.max(PROFILE_COST_GOAL, row.sameSame.rpsSpread) && p99Gain <= Math.max(PROFILE_COST_GOAL, row.sameSame.p99Spread)) return 'within the noise';
  return 'missed';
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
