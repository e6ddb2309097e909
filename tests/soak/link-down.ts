// Fault: the client's link down mid-run, for `outageMs`, as a pulled cable would (the veth at the
// bridge). Short: longer than the agent's heartbeat limit but shorter than SSH keepalive; long:
// longer than keepalive. A back end in a child process runs the session and ends when it is over.
// Measured: how soon the agent on the client is gone, what the server saw, how soon `runs.live`
// and the host's state said so, the seconds lost, how the run ended, and what the hosts kept.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentOwner } from '../../main/services/runs/run-service.ts';
import { labSetLink } from '../lab/lab.ts';
import { within } from '../support/until.ts';
import { faultMoment, firstReport, startChildRun } from './child-run.ts';
import { faultFigures, runFaultFigures, type FaultFigures } from './figures.ts';
import { SETTLE_MS } from './kill-backend.ts';
import type { Random } from './seeded-random.ts';
import { goneAt, holdFault, leftovers, type SoakLab } from './soak-lab.ts';
import { checkStore, secondsLost } from './store-check.ts';

/** The wait for the back end to end its run once the link is back (SSH keepalive and the run's own end bound it). */
const RUN_END_MS = 90_000;

export async function inject(lab: SoakLab, random: Random, repeat: number, outageMs: number): Promise<FaultFigures> {
  const dataDir = mkdtempSync(join(tmpdir(), 'benchlab-soak-link-'));
  const owner = agentOwner(join(dataDir, 'benchlab.db'));
  const run = startChildRun(lab, dataDir, { durationS: 60, rate: 200 }, { exitWhenDone: true });
  let linkDown = false;
  try {
    const { sessionId, agent, delay, loadAverage } = await faultMoment(lab, run, owner, random, 3000);
    await labSetLink('client', 'down', { instance: lab.instance });
    const downAt = Date.now();
    linkDown = true;
    const agentGone = goneAt(agent, outageMs);
    await holdFault(lab, downAt, outageMs);
    const answeredBeforeUp = lab.server.answered();
    const lastRequestBeforeUp = lab.server.lastRequestAt();
    await labSetLink('client', 'up', { instance: lab.instance });
    const upAt = Date.now();
    linkDown = false;
    const agentGoneAt = (await agentGone) ?? (await goneAt(agent, SETTLE_MS));
    const ended = await within(run.exited, 'the back end to end its run', RUN_END_MS).catch(() => null);
    await lab.server.reportedAfter(Date.now());
    // A login whose Benchlab end closed while the link was down ends when TCP's retransmitted FIN
    // gets through: the retransmits back off by doubling, so the next one can come up to about the
    // outage's length after the link is back.
    const left = await leftovers(lab, owner, SETTLE_MS + outageMs);
    const firstAt = run.points.find((point) => !point.warmup)?.at ?? null;
    const store = await checkStore(dataDir, sessionId);
    const report = firstReport(run.states, downAt);
    const hostReport = run.hosts.find((host) => host.publishedAt >= downAt && (host.unresponsiveSince !== null || host.state !== 'connected'));
    const last = run.states.at(-1);
    return faultFigures({
      ...runFaultFigures(repeat, delay, store),
      secondsLost: secondsLost(store.storedAts, firstAt, agentGoneAt ?? upAt),
      loadStoppedMs: lastRequestBeforeUp - downAt,
      agentEndedMs: agentGoneAt === null ? null : agentGoneAt - downAt,
      reportedMs: report?.afterMs ?? null,
      reportedAs: report?.said ?? null,
      leftovers: left,
      loadAverage,
      extra: {
        // Requests the client's kernel had sent before the link went down, retransmitted once it is up.
        'requests at the server after the link came back': lab.server.answered() - answeredBeforeUp,
        'host shown unresponsive or not connected after (ms)': hostReport ? hostReport.publishedAt - downAt : null,
        'run ended after (ms)': last && ended ? last.publishedAt - downAt : null,
        'run ended before the link came back': last && ended ? last.publishedAt < upAt : null,
        'run ended': ended ? `${last?.status ?? '?'}: ${last?.message ?? ''}`.replace(/\d\d:\d\d:\d\d/g, 'HH:MM:SS').replace(/for \d+(\.\d+)? s/, 'for N s') : 'the back end did not end its run',
      },
    });
  } finally {
    if (linkDown) await labSetLink('client', 'up', { instance: lab.instance });
    run.child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
}
