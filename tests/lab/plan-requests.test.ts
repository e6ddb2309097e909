// A plan with two named requests against one template on the lab (instance `requests`): the
// template is deployed once, each request runs as its own session with its own runs and figures,
// named after it, and the slow endpoint (fib(30), CPU-bound) measures slower than the fast one
// (the JSON hello world): relations only, never absolute figures.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { StoredRun } from '../../app/runs/runs.ts';
import type { Session } from '../../app/sessions/sessions.ts';
import { STUDY_TARGET_PLACEHOLDER } from '../../app/plans/plan-file.ts';
import { buildEndpointTable } from '../../app/sessions/comparison-endpoints.ts';
import type { Comparison } from '../../app/sessions/comparison.ts';
import { closePlanLab, openLabBackend, startLabPlan, type LabBackend } from '../support/lab-backend.ts';
import { labSkipReason } from '../support/lab-hosts.ts';

const skip = labSkipReason();

describe('a plan with several named requests on the lab', { skip: skip ?? false }, () => {
  let lab: LabBackend;

  before(async () => {
    lab = await openLabBackend('requests', 'benchlab-requests-lab-', { sharedCaches: true });
  });

  after(() => closePlanLab(lab));

  test('each request of the template is its own session with its own runs; fib answers slower than json', async (t) => {
    const deploys: string[] = [];
    const unwatch = lab.services.bus.subscribe('plans.progress', (state) => {
      for (const stage of state.stages) if (stage.kind === 'deploy' && stage.status === 'running' && !deploys.includes(stage.id)) deploys.push(stage.id);
    });
    await startLabPlan(lab, {
      name: 'Endpoints',
      targets: [{ templateId: 'node', variant: 'async' }],
      profile: { target: STUDY_TARGET_PLACEHOLDER, request: { path: '/json' }, load: { model: 'closed', connections: 4, durationS: 3 }, sweep: [2, 4] },
      requests: [
        { name: 'fast', path: '/json' },
        { name: 'slow', path: '/fib?n=30' },
      ],
    });
    const final = (await lab.services.plans.settled())!;
    unwatch();
    assert.equal(final.status, 'completed', `${final.message ?? ''} ${final.stages.map((stage) => `${stage.id}: ${stage.status} ${stage.detail ?? ''}`).join('; ')}`);
    assert.deepEqual(deploys, ['deploy-0'], 'the template is deployed once for both requests');
    assert.deepEqual(
      final.stages.map((stage) => [stage.id, stage.status]),
      [
        ['deploy-0', 'done'],
        ['load-0-r0', 'done'],
        ['load-0-r1', 'done'],
        ['stop-0', 'done'],
      ],
    );
    assert.equal(final.sessionIds.length, 2, 'a session per request');

    const sessions = await Promise.all(final.sessionIds.map((sessionId) => lab.ok<Session>('sessions.get', { id: sessionId })));
    assert.deepEqual(
      sessions.map((session) => [session.config.requestName, (session.config.profile as { request: { path: string } }).request.path]),
      [
        ['fast', '/json'],
        ['slow', '/fib?n=30'],
      ],
    );
    assert.match(sessions[0]!.name, / — fast$/);
    assert.match(sessions[1]!.name, / — slow$/);

    const [fast, slow] = await Promise.all(final.sessionIds.map((sessionId) => lab.ok<StoredRun[]>('runs.list', { sessionId })));
    // Each session holds its own sweep: two steps each, every one measured.
    for (const runs of [fast!, slow!]) {
      assert.deepEqual(runs.map((run) => run.ordinal).sort(), [1, 2]);
      assert.ok(runs.every((run) => run.summary && run.summary.requests > 0 && run.summary.failed === 0));
    }
    const step = (runs: StoredRun[], ordinal: number) => runs.find((run) => run.ordinal === ordinal)!.summary!;
    for (const ordinal of [1, 2]) {
      const [a, b] = [step(fast!, ordinal), step(slow!, ordinal)];
      t.diagnostic(`step ${ordinal}: fast ${a.requestsPerSecond.toFixed(0)} req/s p99 ${a.p99Us} µs; slow ${b.requestsPerSecond.toFixed(0)} req/s p99 ${b.p99Us} µs`);
      assert.ok(b.p99Us! > a.p99Us!, `step ${ordinal}: fib's p99 ${b.p99Us} µs above json's ${a.p99Us} µs`);
      assert.ok(b.requestsPerSecond < a.requestsPerSecond, `step ${ordinal}: fib ${b.requestsPerSecond} req/s below json ${a.requestsPerSecond}`);
    }

    // Compare lays the two sessions out as a row per endpoint under the one server.
    const comparison = await lab.ok<Comparison>('compare.open', { sessionIds: final.sessionIds });
    const table = buildEndpointTable(comparison);
    assert.ok(table, 'the sessions differ by request: the per-endpoint layout applies');
    assert.equal(table.servers.length, 1);
    assert.deepEqual([...new Set(table.rows.map((row) => row.endpoint))], ['fast', 'slow']);
  });
});
