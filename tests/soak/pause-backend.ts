// Fault: the back end stopped (SIGSTOP) mid-run for `pauseMs`, then continued (SIGCONT): a Benchlab
// alive but not running, as a laptop under load, a long GC or a machine at load 15 leave it. Under
// the agent's heartbeat limit the run must not notice beyond a late second: every second is stored
// and the run completes. Past the limit the load stops within it and the run says Benchlab was
// silent. Measured: which seconds the store holds (by index), how the run ended, how soon the load
// agent was gone and the server's last request came (past the limit), and what the hosts kept.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentOwner } from '../../main/services/runs/run-service.ts';
import { within } from '../support/until.ts';
import { faultMoment, startChildRun } from './child-run.ts';
import { faultFigures, runFaultFigures, type FaultFigures } from './figures.ts';
import { SETTLE_MS } from './kill-backend.ts';
import type { Random } from './seeded-random.ts';
import { goneAt, holdFault, leftovers, type SoakLab } from './soak-lab.ts';
import { checkStore } from './store-check.ts';

/** The wait for the back end to end its run once it runs again. */
const RUN_END_MS = 90_000;

export async function inject(lab: SoakLab, random: Random, repeat: number, pauseMs: number, durationS: number): Promise<FaultFigures> {
  const dataDir = mkdtempSync(join(tmpdir(), 'benchlab-soak-pause-'));
  const owner = agentOwner(join(dataDir, 'benchlab.db'));
  const run = startChildRun(lab, dataDir, { durationS, rate: 200 }, { exitWhenDone: true });
  let paused = false;
  try {
    const { sessionId, agent, delay, loadAverage } = await faultMoment(lab, run, owner, random, 2000);
    run.child.kill('SIGSTOP');
    const pausedAt = Date.now();
    paused = true;
    const agentGone = goneAt(agent, pauseMs);
    await holdFault(lab, pausedAt, pauseMs);
    const lastRequestInPause = lab.server.lastRequestAt();
    run.child.kill('SIGCONT');
    const resumedAt = Date.now();
    paused = false;
    const agentGoneAt = await agentGone;
    const ended = await within(run.exited, 'the back end to end its run', RUN_END_MS).catch(() => null);
    const left = await leftovers(lab, owner, SETTLE_MS);
    const store = await checkStore(dataDir, sessionId);
    const indexes = store.storedIndexes;
    const missing = Array.from({ length: durationS }, (_, index) => index).filter((index) => !indexes.includes(index));
    const last = run.states.at(-1);
    return faultFigures({
      ...runFaultFigures(repeat, delay, store),
      // Under the limit every second of the window is measured; past it, those up to the agent's stop.
      secondsLost: agentGoneAt === null ? missing.length : null,
      loadStoppedMs: agentGoneAt === null ? null : lastRequestInPause - pausedAt,
      agentEndedMs: agentGoneAt === null ? null : agentGoneAt - pausedAt,
      leftovers: left,
      loadAverage,
      extra: {
        'seconds stored, of the window': indexes.length,
        'second indexes missing': missing.length === 0 ? '' : missing.join(' '),
        'second indexes stored twice': indexes.length - new Set(indexes).size,
        'load agent outlived the pause': agentGoneAt === null,
        'run ended after the pause (ms)': last && ended ? last.publishedAt - resumedAt : null,
        'run ended': ended ? `${last?.status ?? '?'}: ${last?.message ?? ''}`.replace(/for \d+(\.\d+)? s/g, 'for N s') : 'the back end did not end its run',
      },
    });
  } finally {
    if (paused) run.child.kill('SIGCONT');
    run.child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
}
