// Fault: the server process killed (-9) mid-run. A back end in a child process runs a short session
// against the soak's counting server, which is killed at a random moment after the first measured
// second and started again once the run is over. Measured: how soon `runs.live` shows the failed
// requests, how the run ended, its books (every refused request counted), the seconds lost, and
// what the hosts kept.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentOwner } from '../../main/services/runs/run-service.ts';
import { within } from '../support/until.ts';
import { faultMoment, startChildRun } from './child-run.ts';
import { faultFigures, runFaultFigures, type FaultFigures } from './figures.ts';
import { SETTLE_MS } from './kill-backend.ts';
import type { Random } from './seeded-random.ts';
import { goneAt, leftovers, type SoakLab } from './soak-lab.ts';
import { checkStore, secondsLost } from './store-check.ts';

const DURATION_S = 5;

export async function inject(lab: SoakLab, random: Random, repeat: number): Promise<FaultFigures> {
  const dataDir = mkdtempSync(join(tmpdir(), 'benchlab-soak-server-'));
  const owner = agentOwner(join(dataDir, 'benchlab.db'));
  const run = startChildRun(lab, dataDir, { durationS: DURATION_S, rate: 200 }, { exitWhenDone: true });
  let killed = false;
  try {
    const { sessionId, agent, delay, loadAverage } = await faultMoment(lab, run, owner, random, 3000);
    lab.server.kill();
    killed = true;
    const killedAt = Date.now();
    // The step runs to its end against a server that is gone, then the back end exits.
    const ended = await within(run.exited, 'the back end to end its run', DURATION_S * 1000 + 60_000).catch(() => null);
    const agentGoneAt = await goneAt(agent, SETTLE_MS);
    const left = await leftovers(lab, owner, SETTLE_MS);
    const firstAt = run.points.find((point) => !point.warmup)?.at ?? null;
    const store = await checkStore(dataDir, sessionId);
    const failedBefore = run.states.filter((state) => state.publishedAt < killedAt).at(-1)?.failed ?? 0;
    const report = run.states.find((state) => state.publishedAt >= killedAt && state.failed > failedBefore);
    const last = run.states.at(-1);
    return faultFigures({
      ...runFaultFigures(repeat, delay, store),
      secondsLost: secondsLost(store.storedAts, firstAt, agentGoneAt ?? Date.now()),
      reportedMs: report ? report.publishedAt - killedAt : null,
      reportedAs: report ? "failed requests in the step's live summary" : null,
      leftovers: left,
      loadAverage,
      extra: {
        'run ended': ended ? `${last?.status ?? '?'}${last?.message ? `: ${last.message}` : ''}` : 'the back end did not end its run',
      },
    });
  } finally {
    run.child.kill('SIGKILL');
    if (killed) await lab.server.restart();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
