// Fault: the data dir's disk full mid-run. The back end (a child process) keeps its data dir on a
// small tmpfs mounted for the injection; at a random moment after the first measured second a
// ballast file takes every free byte, so the store's next write gets ENOSPC. The ballast goes once
// the run is over (or the back end gave up), then the store is checked and started on.
// Measured: whether the back end crashed or ended the run itself, how soon `runs.live` named the
// full disk, how soon the load stopped, the seconds lost while the disk was full, the file's
// integrity and books after, and what the hosts kept.

import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentOwner } from '../../main/services/runs/run-service.ts';
import { run as runCommand } from '../lab/system.ts';
import { within } from '../support/until.ts';
import { faultMoment, firstReport, startChildRun } from './child-run.ts';
import { faultFigures, runFaultFigures, type FaultFigures } from './figures.ts';
import { SETTLE_MS } from './kill-backend.ts';
import type { Random } from './seeded-random.ts';
import { goneAt, leftovers, type SoakLab } from './soak-lab.ts';
import { checkStore, secondsLost } from './store-check.ts';

const TMPFS_SIZE = '4m';
const DURATION_S = 6;

/** Writes zeros into `path` until the file system says it is full; returns the bytes written. */
function fillDisk(path: string): number {
  const chunk = Buffer.alloc(16 * 1024);
  const fd = openSync(path, 'w');
  let written = 0;
  try {
    for (;;) written += writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
  return written;
}

export async function inject(lab: SoakLab, random: Random, repeat: number): Promise<FaultFigures> {
  const mountPoint = mkdtempSync(join(tmpdir(), 'benchlab-soak-disk-'));
  await runCommand('mount', ['-t', 'tmpfs', '-o', `size=${TMPFS_SIZE},mode=0700`, 'benchlab-soak', mountPoint]);
  const dataDir = join(mountPoint, 'data');
  const ballast = join(mountPoint, 'ballast');
  const owner = agentOwner(join(dataDir, 'benchlab.db'));
  const run = startChildRun(lab, dataDir, { durationS: DURATION_S, rate: 200 }, { exitWhenDone: true });
  try {
    const { sessionId, agent, delay, loadAverage } = await faultMoment(lab, run, owner, random, 2000);
    fillDisk(ballast);
    const fullAt = Date.now();
    const agentGone = goneAt(agent, DURATION_S * 1000 + SETTLE_MS);
    const ended = await within(run.exited, 'the back end to end its run', DURATION_S * 1000 + 30_000).catch(() => null);
    const agentGoneAt = await agentGone;
    await lab.server.reportedAfter(Date.now());
    run.child.kill('SIGKILL');
    await run.exited;
    rmSync(ballast);
    const left = await leftovers(lab, owner, SETTLE_MS);
    const firstAt = run.points.find((point) => !point.warmup)?.at ?? null;
    const store = await checkStore(dataDir, sessionId);
    const report = firstReport(run.states, fullAt);
    const crash = /^\w*Error: .*$/m.exec(run.stderr())?.[0] ?? null;
    const last = run.states.at(-1);
    return faultFigures({
      ...runFaultFigures(repeat, delay, store),
      secondsLost: secondsLost(store.storedAts, firstAt, agentGoneAt ?? Date.now()),
      loadStoppedMs: lab.server.lastRequestAt() - fullAt,
      agentEndedMs: agentGoneAt === null ? null : agentGoneAt - fullAt,
      reportedMs: report?.afterMs ?? null,
      reportedAs: report?.said.replace(dataDir, 'DATA_DIR') ?? null,
      leftovers: left,
      loadAverage,
      extra: {
        'back end ended its run itself': ended !== null && ended.done !== null,
        'back end crashed': ended === null ? null : ended.code !== 0,
        ...(ended !== null && ended.code !== 0 ? { 'crashed with': `exit ${ended.code ?? ended.signal}: ${crash ?? 'no error line'}` } : {}),
        'run ended': ended?.done ? `${last?.status ?? '?'}: ${(last?.message ?? '').replace(dataDir, 'DATA_DIR').replace(/\d\d:\d\d:\d\d/g, 'HH:MM:SS')}` : null,
        'session status after the next start': store.sessionStatus,
      },
    });
  } finally {
    run.child.kill('SIGKILL');
    await runCommand('umount', [mountPoint]).catch(() => undefined);
    rmSync(mountPoint, { recursive: true, force: true });
  }
}
