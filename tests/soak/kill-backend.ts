// Fault: kill -9 of the back end mid-run. A real back end in a child process runs an open-model
// session against the soak lab; at a random moment after its first measured second it is killed.
// Measured: how soon the load agent on the client is gone and the server's last request came, what
// the hosts kept (agents, pid files, logins), the file's integrity, and after the next start: the
// session interrupted, its books, the seconds lost, and how far its end time is from its last
// stored second.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentOwner } from '../../main/services/runs/run-service.ts';
import { faultMoment, startChildRun } from './child-run.ts';
import { faultFigures, runFaultFigures, type FaultFigures } from './figures.ts';
import type { Random } from './seeded-random.ts';
import { goneAt, leftovers, type SoakLab } from './soak-lab.ts';
import { checkStore, secondsLost } from './store-check.ts';

/** How long a fault may take to settle before what is still there counts as left behind. */
export const SETTLE_MS = 10_000;

export async function inject(lab: SoakLab, random: Random, repeat: number): Promise<FaultFigures> {
  const dataDir = mkdtempSync(join(tmpdir(), 'benchlab-soak-kill-'));
  const owner = agentOwner(join(dataDir, 'benchlab.db'));
  const run = startChildRun(lab, dataDir, { durationS: 60, rate: 200 }, { exitWhenDone: false });
  try {
    const { sessionId, agent, delay, loadAverage } = await faultMoment(lab, run, owner, random, 4000);
    run.child.kill('SIGKILL');
    const killedAt = Date.now();
    await run.exited;
    const agentGoneAt = await goneAt(agent, SETTLE_MS);
    await lab.server.reportedAfter(Date.now());
    const left = await leftovers(lab, owner, SETTLE_MS);
    const firstAt = run.points.find((point) => !point.warmup)?.at ?? null;
    const store = await checkStore(dataDir, sessionId);
    const lastStoredAt = store.storedAts.at(-1) ?? null;
    return faultFigures({
      ...runFaultFigures(repeat, delay, store),
      secondsLost: secondsLost(store.storedAts, firstAt === null ? null : firstAt, killedAt),
      loadStoppedMs: lab.server.lastRequestAt() - killedAt,
      agentEndedMs: agentGoneAt === null ? null : agentGoneAt - killedAt,
      leftovers: left,
      loadAverage,
      extra: {
        'session interrupted on the next start': store.sessionStatus === 'interrupted',
        'stored end time − last stored second (s)': store.endedAt !== null && lastStoredAt !== null ? (store.endedAt - lastStoredAt) / 1000 : null,
      },
    });
  } finally {
    run.child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
}
