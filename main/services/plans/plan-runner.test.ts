// The plan runner's memory across a Benchlab that ends mid-plan: the plan kept in the data dir as
// it ran comes back marked interrupted, with where it stopped, and a finished one comes back as it
// was. Real services on a real SQLite file; the plan's own work is tested on the lab
// (tests/lab/plan-runner.test.ts).

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { PlanSpec, planStages, type PlanState } from '../../../app/plans/plan.ts';
import { createServices } from '../services.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'benchlab-plan-memory-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function runningPlan(): PlanState {
  const spec = PlanSpec.parse({
    name: 'Overnight',
    clientHostId: 1,
    serverHostId: 2,
    presets: { client: null, server: { presetId: 'load-client', planId: '0123456789abcdef' } },
    targets: [{ templateId: 'node', variant: 'async' }, { templateId: 'node', variant: 'sync' }],
    profile: { target: 'http://127.0.0.1:8080', request: { path: '/hello' }, load: { model: 'closed', connections: 4, durationS: 60 } },
  });
  const stages = planStages(spec, { host: (id) => `host${id}`, preset: (id) => id, template: (id, variant) => `${id}/${variant}` });
  for (const stage of stages.slice(0, 2)) stage.status = 'done';
  stages[2]!.status = 'running';
  stages[2]!.sessionId = 5;
  return { id: 3, name: 'Overnight', status: 'running', stages, sessionIds: [5], message: null, startedAt: '2026-11-21T01:00:00.000Z', endedAt: null, estimateS: 230 };
}

test('a plan that was running when Benchlab ended comes back interrupted, with where it stopped', async () => {
  const first = createServices({ dataDir: dir, transport: 'web', version: 'test' });
  assert.equal(first.plans.current(), null, 'a new data dir has no plan');
  first.drafts.save('last-plan', runningPlan());
  await first.close();

  const second = createServices({ dataDir: dir, transport: 'web', version: 'test' });
  try {
    const plan = second.plans.current()!;
    assert.equal(plan.status, 'interrupted');
    assert.ok(plan.endedAt);
    assert.deepEqual(plan.stages.map((stage) => stage.status), ['done', 'done', 'cancelled', 'cancelled', 'cancelled', 'cancelled', 'cancelled']);
    assert.match(plan.message ?? '', /Benchlab ended while the plan ran \(at "Load node\/async from host1: GET \/hello, c=4, 60 s"\)/);
    assert.match(plan.message ?? '', /presets may still be in effect/);
    assert.deepEqual(plan.sessionIds, [5]);
  } finally {
    await second.close();
  }

  // Marked once: a third start reads the interrupted plan as it was left.
  const third = createServices({ dataDir: dir, transport: 'web', version: 'test' });
  try {
    assert.equal(third.plans.current()!.status, 'interrupted');
  } finally {
    await third.close();
  }
});

test('a finished plan comes back unchanged; something that is not a plan is ignored', async () => {
  const first = createServices({ dataDir: dir, transport: 'web', version: 'test' });
  const done: PlanState = { ...runningPlan(), status: 'completed', endedAt: '2026-11-21T02:00:00.000Z' };
  first.drafts.save('last-plan', done);
  await first.close();
  const second = createServices({ dataDir: dir, transport: 'web', version: 'test' });
  assert.deepEqual(second.plans.current(), done);
  second.drafts.save('last-plan', { status: 'running', name: 42 });
  await second.close();
  const third = createServices({ dataDir: dir, transport: 'web', version: 'test' });
  try {
    assert.equal(third.plans.current(), null);
  } finally {
    await third.close();
  }
});
