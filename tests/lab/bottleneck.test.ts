// The bottleneck verdict on the two-host lab: the Node template's sync variant, whose /sleep blocks
// its only thread, asked for four times the rate it can serve. The lab's hosts are namespaces of one
// machine (one boot id), so the verdict names no side: it says client and server share a machine,
// with the server's evidence (the rate missed, latency rising or timeouts, its event loop blocked,
// its profile's samples in the sleep) and none against the client (the agent on bl-client idles);
// replay and Compare say the same from the stored seconds and the stored profile. Then the same
// overload on a sync Tomcat: its request threads held at their cap while requests queue.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Comparison } from '../../app/sessions/comparison.ts';
import type { ReplayData } from '../../app/sessions/replay.ts';
import type { LiveRun } from '../../app/runs/runs.ts';
import { closeDeployedLab, openDeployedLab, type LabBackend } from '../support/lab-backend.ts';
import { labSkipReason } from '../support/lab-hosts.ts';

// Its own hosts: the host-facts tests deploy on theirs at the same time, and one host runs one template.
const INSTANCE = 'verdict';
const PORT = 18471;

describe('bottleneck verdict on the lab', { skip: labSkipReason() ?? false }, () => {
  let lab: LabBackend;
  let target: string;

  before(async () => {
    ({ lab, target } = await openDeployedLab(INSTANCE, 'benchlab-bottleneck-lab-', { templateId: 'node', variant: 'sync', port: PORT }));
  });
  after(() => closeDeployedLab(lab));

  test('a sync server asked for 4× what it serves: one machine, named no side, with the server’s evidence, the same live, in replay and in Compare', async () => {
    // One request at a time for 20 ms each: at most 50 requests/s, asked for 200.
    const started = await lab.ok<LiveRun>('runs.start', {
      clientHostId: lab.clientId,
      serverHostId: lab.serverId,
      profile: { target, request: { path: '/sleep?ms=20', timeoutMs: 1000 }, load: { model: 'open', rate: 200, durationS: 6 } },
    });
    const ended = await lab.services.runs.finished(started.sessionId);
    assert.equal(ended.status, 'completed', ended.message ?? '');
    const live = ended.steps[0]!.bottleneck;
    assert.equal(live?.verdict, 'shared-machine', JSON.stringify(live));
    const kinds = live!.evidence.map((evidence) => evidence.kind);
    assert.ok(kinds.includes('same-machine') && kinds.includes('below-target'), kinds.join());
    assert.ok(!kinds.includes('agent-cpu') && !kinds.includes('event-loop-lag'), kinds.join());
    assert.ok(kinds.some((kind) => kind === 'latency-rising' || kind === 'timeouts'), kinds.join());
    // Why, from the server's own readings: its event loop blocked by /sleep (the preloaded monitor's
    // delay), and its CPU profile's samples nearly all in the sleep's own frame.
    assert.ok(kinds.includes('server-loop-blocked') && !kinds.includes('pool-exhausted'), kinds.join());
    assert.match(live!.evidence.find((evidence) => evidence.kind === 'profile-hotspot')?.message ?? kinds.join(), /in one frame: sleep server\.mjs/);

    const replay = await lab.ok<ReplayData>('replay.load', { sessionId: started.sessionId });
    assert.deepEqual(replay.run.steps[0]!.bottleneck, live);
    // Compare needs a second session: a one-second closed run, whatever its verdict.
    const other = await lab.ok<LiveRun>('runs.start', {
      clientHostId: lab.clientId,
      serverHostId: lab.serverId,
      profile: { target, request: { path: '/hello' }, load: { model: 'closed', connections: 2, durationS: 1 } },
    });
    assert.equal((await lab.services.runs.finished(other.sessionId)).status, 'completed');
    const comparison = await lab.ok<Comparison>('compare.open', { sessionIds: [started.sessionId, other.sessionId] });
    const row = comparison.steps.flatMap((step) => step.rows).find((candidate) => candidate.session === 0);
    assert.deepEqual(row?.bottleneck, live);
  });

  test('a sync Tomcat whose request threads all sleep: its thread pool at its cap, named with the threads replay draws', async () => {
    // 60 request threads sleeping 200 ms each serve at most 300 requests/s; asked for 500, the rest queue and time out.
    await lab.call('templates.stop', { hostId: lab.serverId });
    const deployment = await lab.ok<{ url: string }>('templates.deploy', { hostId: lab.serverId, templateId: 'tomcat', variant: 'sync', port: PORT + 1, knobs: { maxThreads: 60 } });
    const started = await lab.ok<LiveRun>('runs.start', {
      clientHostId: lab.clientId,
      serverHostId: lab.serverId,
      profile: { target: deployment.url.replace(/\/$/, ''), request: { path: '/sleep?ms=200', timeoutMs: 1000 }, load: { model: 'open', rate: 500, durationS: 6 }, warmupS: 2, profileServer: false },
    });
    const ended = await lab.services.runs.finished(started.sessionId);
    assert.equal(ended.status, 'completed', ended.message ?? '');
    const live = ended.steps[0]!.bottleneck;
    const kinds = live?.evidence.map((evidence) => evidence.kind) ?? [];
    assert.ok(kinds.includes('pool-exhausted') && !kinds.includes('server-loop-blocked'), kinds.join());
    // The threads it names are the most the replayed seconds drew: the pool and the JVM's own.
    const replay = await lab.ok<ReplayData>('replay.load', { sessionId: started.sessionId });
    const threads = Math.max(...replay.points.filter((point) => !point.warmup && !point.drain).map((point) => point.server?.threads ?? 0));
    assert.ok(threads > 60, `threads ${threads}`);
    assert.match(live!.evidence.find((evidence) => evidence.kind === 'pool-exhausted')!.message, new RegExp(`threads held at ${threads} `));
    assert.deepEqual(replay.run.steps[0]!.bottleneck, live);
  });
});
