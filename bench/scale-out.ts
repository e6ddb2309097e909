// Figures of a run driven from several load clients, on the `scaleout` lab (bl-client, bl-client2,
// bl-server): one client against two clients on the same target, nginx on bl-server (one worker),
// each a real session through the run service (the load split by weight, clocks measured, a
// coordinated start, the seconds merged exactly). Printed: the merged requests/s and p50/p99 of
// each, the ratio two/one, each client's share, and the start skew between the two clients — the
// difference between the corrected `at` (Benchlab's clock) of each client's first measured second —
// beside the clock offsets and their uncertainty. The lab's hosts share this machine's cores, so two
// clients show that the split, start and merge are right, not extra capacity.

import { existsSync } from 'node:fs';
import type { ClockOffset } from '../app/runs/clock-offset.ts';
import type { LiveRun, StoredRun } from '../app/runs/runs.ts';
import type { RunSummary } from '../app/runs/run-summary.ts';
import { SamplesRepository } from '../main/services/runs/samples-repository.ts';
import { openMultiClientLab, type MultiClientLab } from '../tests/support/lab-clients.ts';
import { labSkipReason } from '../tests/support/lab-hosts.ts';
import { withLabServerNginx } from './hello-nginx.ts';
import { withMachineLoad, type MachineLoad } from './load-engine.ts';
import { AGENT_BUNDLE } from './load-tools.ts';

const INSTANCE = 'scaleout';
const NGINX_PORT = 18498;
export const SCALE_OUT_LOAD = { connections: 40, durationS: 3, warmupS: 1 } as const;
/** Interleaved rounds of one client then two. */
export const SCALE_OUT_ROUNDS = 2;

export interface ScaleOutRun {
  clients: number;
  load: MachineLoad;
  summary: RunSummary;
  /** Each client's own requests/s over the measured window, by index. */
  clientRps: number[];
  /** Latest minus earliest corrected `at` of the clients' first measured seconds (ms); null for one client. */
  startSkewMs: number | null;
  clocks: Array<ClockOffset | null>;
  engines: string[];
}

export interface ScaleOut {
  skipped: string | null;
  runs: ScaleOutRun[];
}

async function session(lab: MultiClientLab, url: string, clients: number): Promise<ScaleOutRun> {
  const { value: live, load } = await withMachineLoad(async () => {
    const started = await lab.ok<LiveRun>('runs.start', {
      clients: lab.clientIds.slice(0, clients).map((hostId) => ({ hostId, weight: 1 })),
      profile: {
        target: url,
        request: { path: '/' },
        warmupS: SCALE_OUT_LOAD.warmupS,
        load: { model: 'closed', connections: SCALE_OUT_LOAD.connections, durationS: SCALE_OUT_LOAD.durationS },
      },
    });
    return lab.services.runs.finished(started.sessionId);
  });
  if (live.status !== 'completed') throw new Error(`the ${clients}-client session ended ${live.status}: ${live.message ?? ''}`);
  const [stored] = await lab.ok<StoredRun[]>('runs.list', { sessionId: live.sessionId });
  if (!stored?.summary) throw new Error(`the ${clients}-client session stored no summary`);
  const measured = new SamplesRepository(lab.services.db).forRun(stored.id).filter((second) => second.phase === 'measure');
  const clientRps = live.clients.map((client) => {
    const own = measured.filter((second) => second.clientIndex === client.index);
    const ms = own.reduce((sum, second) => sum + (second.clientMetrics?.durationMs ?? 1000), 0);
    return ms > 0 ? (own.reduce((sum, second) => sum + second.requests, 0) / ms) * 1000 : 0;
  });
  const firstAts = live.clients.map((client) => measured.find((second) => second.clientIndex === client.index && second.second === 0)?.clientMetrics?.at ?? null);
  const known = firstAts.filter((at): at is number => at !== null);
  return {
    clients,
    load,
    summary: stored.summary,
    clientRps,
    startSkewMs: clients > 1 && known.length === clients ? Math.max(...known) - Math.min(...known) : null,
    clocks: live.clients.map((client) => client.clock),
    engines: live.clients.map((client) => client.engine?.kind ?? '?'),
  };
}

export async function benchScaleOut(): Promise<ScaleOut> {
  const skipped = labSkipReason() ?? (existsSync('/usr/sbin/nginx') ? null : 'needs nginx on this machine (apt-get install nginx)') ?? (existsSync(AGENT_BUNDLE) ? null : 'build the agent first: npm run build:agent');
  if (skipped) return { skipped, runs: [] };
  return withLabServerNginx(INSTANCE, NGINX_PORT, () => openMultiClientLab(INSTANCE, 'benchlab-bench-scale-out-store-', 2), async (nginx, lab) => {
    const runs: ScaleOutRun[] = [];
    for (let round = 0; round < SCALE_OUT_ROUNDS; round++) {
      for (const clients of [1, 2]) runs.push(await session(lab, nginx.url, clients));
    }
    return { skipped: null, runs };
  });
}
