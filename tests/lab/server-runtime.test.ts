// The server's own story per second on the lab (instance `runtime`): a Node template loaded at a low
// and then a ten times higher rate. Each second read on the server host carries each core's busy
// share, the host's run queue, the server threads' context switches and the TCP retransmits, and
// they move with the load: the higher step's server threads wait (voluntary switches) more often,
// one wake-up per batch of requests. Replay draws the same figures from the stored seconds, and
// Compare says each run's in one line: with how many of those waits may be the event-loop monitor's
// own timer waking the loop, and the server's GC.
// Relations only: how many switches a request costs depends on the machine and how busy it is.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ReplayData } from '../../app/sessions/replay.ts';
import type { Comparison } from '../../app/sessions/comparison.ts';
import type { LivePoint, LiveRun } from '../../app/runs/runs.ts';
import { median } from '../../app/common/median.ts';
import { openLabBackend, type LabBackend } from '../support/lab-backend.ts';
import { labSkipReason } from '../support/lab-hosts.ts';

const PORT = 18473;
const RATES = [40, 400];

describe("the server's runtime figures per second on the lab", { skip: labSkipReason() ?? false }, () => {
  let lab: LabBackend;
  let target: string;

  before(async () => {
    lab = await openLabBackend('runtime', 'benchlab-runtime-lab-');
    const deployment = await lab.ok<{ url: string }>('templates.deploy', { hostId: lab.serverId, templateId: 'node', variant: 'async', port: PORT });
    target = deployment.url.replace(/\/$/, '');
  });

  after(async () => {
    if (!lab) return;
    await lab.call('templates.stop', { hostId: lab.serverId });
    lab.close();
  });

  test('each core, the run queue, the server threads’ switches and the retransmits are read every second, and the switches rise with the load', async (t) => {
    const started = await lab.ok<LiveRun>('runs.start', {
      clientHostId: lab.clientId,
      serverHostId: lab.serverId,
      // No CPU profile: V8's sampler wakes the server's threads every millisecond, a thousand switches a
      // second of its own that would drown the load's.
      profile: { target, request: { path: '/hello' }, load: { model: 'open', rate: RATES[0], durationS: 4 }, sweep: RATES, profileServer: false },
    });
    const ended = await lab.services.runs.finished(started.sessionId);
    assert.equal(ended.status, 'completed', ended.message ?? '');

    const replay = await lab.ok<ReplayData>('replay.load', { sessionId: started.sessionId });
    const read = replay.points.filter((point): point is LivePoint & { server: NonNullable<LivePoint['server']> } => !point.warmup && !point.drain && point.server !== undefined && point.server.coreCpu.length > 0);
    assert.ok(read.length >= 4, `seconds with the server's reading: ${read.length} of ${replay.points.length}`);
    for (const point of read) {
      assert.ok(point.server.coreCpu.every((busy) => busy >= 0 && busy <= 1), JSON.stringify(point.server.coreCpu));
      assert.ok(point.server.runQueue! >= 1, 'the sampler itself was running');
      assert.ok(point.server.threads! >= 1, 'the server process was found');
      assert.ok(point.server.tcpRetransmitsPerS! >= 0);
    }
    // Every core of the server host has its line: as many as the host has.
    assert.equal(new Set(read.map((point) => point.server.coreCpu.length)).size, 1, 'the same cores each second');

    // A second the server's threads were compared with the one before has its switches.
    const switches = (step: number) => read.filter((point) => point.step === step && point.server.voluntarySwitchesPerS !== null).map((point) => point.server.voluntarySwitchesPerS!);
    const [low, high] = [switches(0), switches(1)];
    assert.ok(low.length >= 2 && high.length >= 2, `seconds with switches: ${low.length}, ${high.length}`);
    t.diagnostic(`voluntary switches/s of the server's threads: median ${median(low)} at ${RATES[0]} req/s, ${median(high)} at ${RATES[1]} req/s`);
    assert.ok(median(high)! > median(low)!, `ten times the requests, more waits: ${median(low)} then ${median(high)}`);

    // Compare (and the PDF, from the same rows) says it per run, in words.
    const other = await lab.ok<LiveRun>('runs.start', { clientHostId: lab.clientId, serverHostId: lab.serverId, profile: { target, request: { path: '/hello' }, load: { model: 'closed', connections: 2, durationS: 2 } } });
    assert.equal((await lab.services.runs.finished(other.sessionId)).status, 'completed');
    const comparison = await lab.ok<Comparison>('compare.open', { sessionIds: [started.sessionId, other.sessionId] });
    const lines = comparison.steps.flatMap((step) => step.rows).map((row) => row.serverRuntime ?? '');
    assert.equal(lines.length, 3);
    for (const line of lines) assert.match(line, /^threads up to \d+ · busiest core \d+ % · run queue \d+ · context switches\/s [\d,]+ waited \(up to [\d,]+ of them the event-loop monitor's timer\), [\d,]+ preempted · [\d,]+ TCP retransmits · accept queue full \d+ times · GC [\d,]+ pauses?, [\d.]+ % of the time(, longest [\d.,]+ ms, heap after GC up to [\d.]+ [kM]B)? · event-loop delay p99 [\d.,]+ ms, worst [\d.,]+ ms \(medians per second over \d+ s\)$/);
  });
});
