// The plan runner with named requests, over fake services (no hosts): each template is deployed
// once, then loaded once per request, each load its own session with that request's profile and
// name, then stopped; with repeats, each request's sessions form their own repeat group.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PlanState } from '../../../app/plans/plan.ts';
import { fakePlanRunner as fakeRunner, fakePlanSpec as spec } from '../../../tests/support/fake-plan-services.ts';

const requests = [
  { name: 'json', path: '/json' },
  { name: 'fib', path: '/fib?n=30', load: { model: 'closed' as const, connections: 2, durationS: 1 } },
];

test('two requests of two templates: one deploy and one stop per template, a session per request', async () => {
  const { runner, calls, started } = fakeRunner();
  await runner.start(spec({ requests }));
  const plan = (await runner.settled()) as PlanState;
  assert.equal(plan.status, 'completed', plan.message ?? '');
  assert.deepEqual(
    calls.filter((call) => call.startsWith('deploy') || call === 'stop'),
    ['deploy node/async', 'stop', 'deploy node/sync', 'stop'],
  );
  assert.deepEqual(
    started.map((run) => [run.name, run.requestName, run.profile.request.path, run.profile.load.model === 'closed' ? run.profile.load.connections : null]),
    [
      ['sync vs async — Node · async — json', 'json', '/json', 4],
      ['sync vs async — Node · async — fib', 'fib', '/fib?n=30', 2],
      ['sync vs async — Node · sync — json', 'json', '/json', 4],
      ['sync vs async — Node · sync — fib', 'fib', '/fib?n=30', 2],
    ],
  );
  assert.deepEqual(plan.sessionIds, [1, 2, 3, 4]);
  assert.deepEqual(
    plan.stages.filter((stage) => stage.kind === 'load').map((stage) => [stage.id, stage.sessionId, stage.status]),
    [
      ['load-0-r0', 1, 'done'],
      ['load-0-r1', 2, 'done'],
      ['load-1-r0', 3, 'done'],
      ['load-1-r1', 4, 'done'],
    ],
  );
});

test('with repeats, each template and request is its own repeat group', async () => {
  const { runner, started } = fakeRunner();
  await runner.start(spec({ requests, repeats: 2, targets: [{ templateId: 'node', variant: 'async' }] }));
  await runner.settled();
  const group = (request: string, round: number) => started.find((run) => run.requestName === request && run.repeat?.index === round)!.repeat!.group;
  assert.equal(group('json', 1), group('json', 2));
  assert.equal(group('fib', 1), group('fib', 2));
  assert.notEqual(group('json', 1), group('fib', 1));
});

test('a failed deploy skips every request of its template', async () => {
  const { runner, started } = fakeRunner({ failDeployOf: ['async'] });
  await runner.start(spec({ requests }));
  const plan = (await runner.settled()) as PlanState;
  assert.deepEqual(
    plan.stages.filter((stage) => stage.kind === 'load' && stage.target === 0).map((stage) => stage.status),
    ['skipped', 'skipped'],
  );
  assert.deepEqual(
    started.map((run) => run.name),
    ['sync vs async — Node · sync — json', 'sync vs async — Node · sync — fib'],
  );
});
