// One owner per server, as the plan runner keeps it (over fake services): a deploy that fails stops
// nothing (what runs there is not the plan's), and a plan whose server host another plan holds, or
// that runs a server already, is refused at its start before anything is applied, deployed or
// stopped, naming who holds the host; the hold a plan takes is released at its end.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PlanState } from '../../../app/plans/plan.ts';
import { FAKE_PLAN_ID, fakePlanRunner, fakePlanSpec } from '../../../tests/support/fake-plan-services.ts';

const serverPreset = { client: null, server: { presetId: 'wrk-seed', planId: FAKE_PLAN_ID } };

test('a deploy that fails stops nothing: the stop stage is skipped, and the next template still runs', async () => {
  const { runner, calls, holds } = fakePlanRunner({ failDeployOf: ['async'] });
  await runner.start(fakePlanSpec({}));
  const plan = (await runner.settled()) as PlanState;
  assert.equal(plan.status, 'failed');
  assert.deepEqual(calls, ['deploy node/async', 'deploy node/sync', 'load', 'stop'], 'only the server the plan deployed is stopped');
  const stop = plan.stages.find((stage) => stage.id === 'stop-0')!;
  assert.equal(stop.status, 'skipped');
  assert.match(stop.detail ?? '', /nothing to stop/);
  assert.deepEqual(holds, ['hold host2 for plan "sync vs async"', 'release host2']);
});

test('another plan holding the server host refuses this one at its start, before any preset, deploy or stop', async () => {
  const { runner, calls } = fakePlanRunner({ heldBy: 'host2 is held by plan "Overnight" of the benchlab CLI (pid 7 on ci)' });
  await assert.rejects(runner.start(fakePlanSpec({ presets: serverPreset })), {
    code: 'conflict',
    message: 'host2 is held by plan "Overnight" of the benchlab CLI (pid 7 on ci): plan "sync vs async" did not start: nothing was applied, deployed or stopped',
  });
  assert.deepEqual(calls, []);
  assert.equal(runner.current(), null, 'no plan is shown as this one');
});

test('a server another Benchlab holds on the server host refuses the plan at its start, naming its holder and its load', async () => {
  const { runner, calls, holds } = fakePlanRunner({
    occupantAtStart: { templateName: 'Express', variant: 'sync', port: 9090, startedBy: 'other', state: 'ready', heartbeatAgeSeconds: 3, deploymentId: 'd9', holder: 'the Benchlab app (pid 9 on desk)', runs: ['A — Express'], heldBy: null },
  });
  await assert.rejects(runner.start(fakePlanSpec({ presets: serverPreset })), {
    code: 'conflict',
    message:
      'host2 runs Express (sync) on port 9090, held by the Benchlab app (pid 9 on desk), heartbeat 3 s ago; run “A — Express” loads it now: plan "sync vs async" did not start: nothing was applied, deployed or stopped. Stop that server first, or choose another server host.',
  });
  assert.deepEqual(calls, []);
  assert.deepEqual(holds, ['hold host2 for plan "sync vs async"', 'release host2'], 'the hold taken for the check is let go');
});
