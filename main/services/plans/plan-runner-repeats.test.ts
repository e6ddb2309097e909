// The plan runner with Repeats, over fake services (no hosts): the targets run interleaved round by
// round (A B A B), each run deployed, loaded as its own session and stopped again, the sessions of
// one target tagged as its repeats (one group per target and plan), and a single run left untagged;
// a plan with several load clients hands them all to every load, one client its host alone.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PlanState } from '../../../app/plans/plan.ts';
import { fakePlanRunner as fakeRunner, fakePlanSpec as spec } from '../../../tests/support/fake-plan-services.ts';

test('three repeats of two targets: interleaved, each run its own session, tagged per target', async () => {
  const { runner, calls, started } = fakeRunner();
  await runner.start(spec({ repeats: 3 }));
  const plan = (await runner.settled()) as PlanState;
  assert.equal(plan.status, 'completed');
  assert.deepEqual(
    calls.filter((call) => call.startsWith('deploy')),
    ['deploy node/async', 'deploy node/sync', 'deploy node/async', 'deploy node/sync', 'deploy node/async', 'deploy node/sync'],
  );
  assert.equal(calls.filter((call) => call === 'stop').length, 6);
  assert.deepEqual(plan.sessionIds, [1, 2, 3, 4, 5, 6]);
  assert.deepEqual(
    started.map((run) => run.name),
    [1, 1, 2, 2, 3, 3].map((round, i) => `sync vs async — Node · ${i % 2 === 0 ? 'async' : 'sync'} (run ${round} of 3)`),
  );
  assert.deepEqual(
    started.map((run) => [run.repeat?.index, run.repeat?.of]),
    [[1, 3], [1, 3], [2, 3], [2, 3], [3, 3], [3, 3]],
  );
  const groups = started.map((run) => run.repeat!.group);
  assert.equal(groups[0], groups[2]);
  assert.equal(groups[0], groups[4]);
  assert.equal(groups[1], groups[5]);
  assert.notEqual(groups[0], groups[1]);
  assert.deepEqual(
    started.map((run) => run.deployment),
    [1, 4, 7, 10, 13, 16].map((round, i) => ({ templateId: 'node', variant: i % 2 === 0 ? 'async' : 'sync', knobs: { round } })),
    'each run is labelled with the deployment made just before it, not guessed',
  );
  assert.ok(plan.stages.every((stage) => stage.status === 'done'));
});

test('a plan without repeats tags nothing, so its sessions still group with equal configurations', async () => {
  const { runner, started } = fakeRunner();
  await runner.start(spec({}));
  await runner.settled();
  assert.deepEqual(
    started.map((run) => [run.name, run.repeat]),
    [
      ['sync vs async — Node · async', undefined],
      ['sync vs async — Node · sync', undefined],
    ],
  );
});

test('several load clients: every load gets them all with their weights; one client goes as its host alone', async () => {
  const several = fakeRunner();
  const clients = [{ hostId: 1 }, { hostId: 3, weight: 2 }];
  await several.runner.start(spec({ clients }));
  const plan = (await several.runner.settled()) as PlanState;
  assert.deepEqual(several.started.map((run) => [run.clientHostId, run.clients]), [[undefined, clients], [undefined, clients]]);
  assert.match(plan.stages.find((stage) => stage.kind === 'load')!.label, /^Load Node · async from host1, host3: /);

  const one = fakeRunner();
  await one.runner.start(spec({}));
  await one.runner.settled();
  assert.deepEqual(one.started.map((run) => [run.clientHostId, run.clients]), [[1, undefined], [1, undefined]]);
});

test('a plan whose clients do not start with its client host, or name one twice, is refused', () => {
  assert.throws(() => spec({ clients: [{ hostId: 3 }, { hostId: 1 }] }), /clients.*must be the client host/s);
  assert.throws(() => spec({ clients: [{ hostId: 1 }, { hostId: 3 }, { hostId: 3 }] }), /names a client host again/);
});
