// The plan runner with capacity steps, over fake services: the calibration deploys the reference
// server, probes it, ramps it and stops it before the first template; every template's run then
// takes the multiples of the measured capacity as its steps and keeps the calibration in its
// session; a calibration that finds no capacity fails the plan before any template is deployed.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fakePlanRunner, fakePlanSpec } from '../../../tests/support/fake-plan-services.ts';

const capacitySpec = (overrides = {}) =>
  fakePlanSpec({
    profile: { target: 'http://127.0.0.1:8080', request: { path: '/file' }, load: { model: 'open', rate: 1, durationS: 30 } },
    capacity: { reference: { templateId: 'node', variant: 'sync' }, times: [0.5, 1.5, 3] },
    ...overrides,
  });

test('the calibration runs once before the templates, and each template runs the multiples of the capacity it measured', async () => {
  const { runner, calls, started } = fakePlanRunner({ serverCapacity: 1000 });
  await runner.start(capacitySpec());
  const final = (await runner.settled())!;
  assert.equal(final.status, 'completed', final.message ?? '');
  assert.deepEqual(calls, ['deploy node/sync', 'load', 'load', 'stop', 'deploy node/async', 'load', 'stop', 'deploy node/sync', 'load', 'stop']);
  const [probe, ramp, ...runs] = started;
  assert.equal(probe!.profile.load.model, 'closed', 'a closed-model probe first');
  assert.equal(ramp!.profile.load.model, 'open', 'then an open-model ramp');
  assert.ok(ramp!.profile.sweep.length > 1 && ramp!.profile.sweep.every((rate, index) => index === 0 || rate > ramp!.profile.sweep[index - 1]!), 'rising');
  // The fake server sustains every rate up to 1000 req/s: the ramp's highest sustained rate is the capacity.
  const sustained = ramp!.profile.sweep.filter((rate) => rate <= 1000);
  const capacity = Math.max(...sustained);
  assert.equal(runs.length, 2);
  for (const run of runs) {
    assert.deepEqual(run.profile.sweep, [0.5, 1.5, 3].map((multiple) => Math.round(multiple * capacity)));
    assert.equal(run.calibration?.capacity, capacity);
    assert.deepEqual(run.calibration?.rates, run.profile.sweep);
    assert.deepEqual(run.calibration?.sessionIds, [1, 2], 'the probe’s and the ramp’s sessions');
    assert.equal(run.calibration?.reference.label, 'Node · sync');
  }
  // Only the templates' sessions are the plan's; the stage says the capacity and the load stages name the rates.
  assert.deepEqual(final.sessionIds, [3, 4]);
  const stage = final.stages.find((candidate) => candidate.kind === 'calibrate')!;
  assert.equal(stage.status, 'done');
  assert.match(stage.detail ?? '', new RegExp(`steps from a capacity of ${capacity.toLocaleString('en-US')} req/s measured on Node · sync`));
  const load = final.stages.find((candidate) => candidate.kind === 'load')!;
  assert.match(load.label, new RegExp(`${Math.round(0.5 * capacity)} req/s for 30 s`));
});

test('a calibration that finds no sustained rate fails the plan before any template is deployed', async () => {
  // A server of half a request a second: every rate of the ramp (1 req/s at least) is above it.
  const { runner, calls } = fakePlanRunner({ serverCapacity: 0.5 });
  await runner.start(capacitySpec());
  const final = (await runner.settled())!;
  assert.equal(final.status, 'failed');
  assert.deepEqual(calls, ['deploy node/sync', 'load', 'load', 'stop']);
  assert.match(final.message ?? '', /sustained none of the ramp's rates/);
  assert.deepEqual(
    final.stages.filter((stage) => stage.kind !== 'calibrate').map((stage) => stage.status),
    final.stages.filter((stage) => stage.kind !== 'calibrate').map(() => 'skipped'),
  );
});

test('capacity steps need the open model and take no sweep of their own', () => {
  assert.throws(() => capacitySpec({ profile: { target: 'http://127.0.0.1:8080', request: { path: '/file' }, load: { model: 'closed', connections: 4, durationS: 1 } } }), /open model/);
  assert.throws(() => capacitySpec({ profile: { target: 'http://127.0.0.1:8080', request: { path: '/file' }, load: { model: 'open', rate: 1, durationS: 1 }, sweep: [1, 2] } }), /leave the sweep empty/);
});
