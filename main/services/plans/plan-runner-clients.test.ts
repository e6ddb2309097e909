// The plan runner with several load clients and presets, over fake services: the client preset is
// applied to every client (each with the plan reviewed on it, one stage per host) and reverted on
// every one; a preset that fails on the second client names it and puts the first back. And the
// check right before each run that the server host runs the deployment just made and nothing else.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PlanState } from '../../../app/plans/plan.ts';
import { FAKE_PLAN_ID, fakePlanRunner, fakePlanSpec } from '../../../tests/support/fake-plan-services.ts';

const SECOND_PLAN_ID = 'fedcba9876543210';
const twoClients = { clients: [{ hostId: 1 }, { hostId: 3 }] };
const clientPreset = { presetId: 'load-client', planId: FAKE_PLAN_ID, morePlanIds: [SECOND_PLAN_ID] };

test('the client preset is applied to every client, each with its own plan, then reverted on each', async () => {
  const { runner, calls } = fakePlanRunner();
  await runner.start(fakePlanSpec({ ...twoClients, revertPresets: true, presets: { client: clientPreset, server: { presetId: 'wrk-seed', planId: FAKE_PLAN_ID } } }));
  const plan = (await runner.settled()) as PlanState;
  assert.equal(plan.status, 'completed', plan.message ?? '');
  assert.deepEqual(calls.filter((call) => /^(apply|revert)/.test(call)), [
    `apply load-client on host1 (${FAKE_PLAN_ID})`,
    `apply load-client on host3 (${SECOND_PLAN_ID})`,
    `apply wrk-seed on host2 (${FAKE_PLAN_ID})`,
    'revert host1',
    'revert host3',
    'revert host2',
  ]);
  const presetStages = plan.stages.filter((stage) => stage.kind === 'preset' || stage.kind === 'revert');
  // One line per stage, as the calls above: its id, its status, its label.
  assert.deepEqual(presetStages.map((stage) => `${stage.id} ${stage.status}: ${stage.label}`), [
    'preset-client-0 done: Apply preset "load-client" on host1',
    'preset-client-1 done: Apply preset "load-client" on host3',
    'preset-server done: Apply preset "wrk-seed" on host2',
    'revert-client-0 done: Revert host1 to its settings before the preset',
    'revert-client-1 done: Revert host3 to its settings before the preset',
    'revert-server done: Revert host2 to its settings before the preset',
  ]);
});

test('a preset whose limit did not take effect ends done with a warning naming the value in effect, never plain done', async () => {
  const nofile = { kind: 'limit' as const, key: 'root hard nofile', expected: '100000', observed: '20000', status: 'not effective' as const, reason: 'hard limit 20000 caps it: it cannot be raised here (new logins still get 20000)' };
  const tw = { kind: 'sysctl' as const, key: 'net.ipv4.tcp_tw_reuse', expected: '1', observed: '1', status: 'applied' as const, reason: null };
  const { runner } = fakePlanRunner({ verdictsOn: { 2: [tw, nofile] } });
  await runner.start(fakePlanSpec({ revertPresets: true, presets: { client: { presetId: 'load-client', planId: FAKE_PLAN_ID }, server: { presetId: 'wrk-seed', planId: FAKE_PLAN_ID } } }));
  const plan = (await runner.settled()) as PlanState;
  assert.equal(plan.status, 'completed', plan.message ?? '');
  const stage = (id: string) => plan.stages.find((candidate) => candidate.id === id)!;
  assert.equal(stage('preset-client').warning ?? null, null, 'every key of the client preset took');
  assert.equal(stage('preset-server').status, 'done', 'the preset is applied (and reverted at the end)');
  assert.equal(
    stage('preset-server').warning,
    '1 of 2 keys did not take effect: root hard nofile: 20000 in effect, asked 100000 (hard limit 20000 caps it: it cannot be raised here (new logins still get 20000))',
  );
  assert.equal(stage('revert-server').status, 'done');
});

test('a preset failing on the second client names that host, reverts the first, and runs nothing', async () => {
  const { runner, calls } = fakePlanRunner({ failApplyOn: [3] });
  await runner.start(fakePlanSpec({ ...twoClients, revertPresets: true, presets: { client: clientPreset, server: { presetId: 'wrk-seed', planId: FAKE_PLAN_ID } } }));
  const plan = (await runner.settled()) as PlanState;
  assert.equal(plan.status, 'failed');
  assert.match(plan.message ?? '', /^Apply preset "load-client" on host3: sysctl refused$/m);
  assert.deepEqual(calls, [`apply load-client on host1 (${FAKE_PLAN_ID})`, `apply load-client on host3 (${SECOND_PLAN_ID})`, 'revert host1']);
  const status = (id: string) => plan.stages.find((stage) => stage.id === id)?.status;
  assert.deepEqual(['revert-client-0', 'revert-client-1', 'revert-server', 'preset-server', 'deploy-0'].map(status), ['done', 'skipped', 'skipped', 'skipped', 'skipped']);
});

test('without reverts asked, a failed client preset still puts back the clients it had changed, said in the failure', async () => {
  const { runner, calls } = fakePlanRunner({ failApplyOn: [3] });
  await runner.start(fakePlanSpec({ ...twoClients, revertPresets: false, presets: { client: clientPreset, server: null } }));
  const plan = (await runner.settled()) as PlanState;
  assert.equal(plan.status, 'failed');
  assert.deepEqual(calls, [`apply load-client on host1 (${FAKE_PLAN_ID})`, `apply load-client on host3 (${SECOND_PLAN_ID})`, 'revert host1']);
  assert.equal(plan.message, 'Apply preset "load-client" on host3: sysctl refused; what the plan had changed is put back: host1 reverted');
  assert.ok(!plan.stages.some((stage) => stage.kind === 'revert'), 'no revert stages were planned');
});

test('a plan of several clients gives one reviewed plan per client, and a client that is the server takes one preset', () => {
  assert.throws(() => fakePlanSpec({ ...twoClients, presets: { client: { presetId: 'load-client', planId: FAKE_PLAN_ID }, server: null } }), /morePlanIds.*gives 0 plans for 1 clients after the first/s);
  assert.throws(() => fakePlanSpec({ presets: { client: clientPreset, server: null } }), /gives 1 plans for 0 clients/);
  assert.throws(
    () => fakePlanSpec({ clients: [{ hostId: 1 }, { hostId: 2 }], presets: { client: clientPreset, server: { presetId: 'wrk-seed', planId: FAKE_PLAN_ID } } }),
    /a client and the server are one host: choose one preset for it/,
  );
});

test('another Benchlab’s server on the host fails each run before it starts, and is left running', async () => {
  const { runner, calls, started } = fakePlanRunner({
    occupant: () => ({ templateName: 'Go', variant: 'std', port: 9090, startedBy: 'other', state: 'ready', heartbeatAgeSeconds: 2, deploymentId: 'd9', holder: 'the benchlab CLI (pid 7 on ci)', runs: [], heldBy: null }),
  });
  await runner.start(fakePlanSpec({}));
  const plan = (await runner.settled()) as PlanState;
  assert.equal(plan.status, 'failed');
  assert.equal(started.length, 0, 'no run started');
  assert.deepEqual(calls, ['deploy node/async', 'deploy node/sync'], 'the other server is not stopped');
  const load = plan.stages.find((stage) => stage.id === 'load-0')!;
  assert.equal(load.status, 'failed');
  assert.equal(load.detail, 'host2 now runs Go (std) on port 9090, driven by another Benchlab: the run did not start; stop that server or choose another server host');
  assert.equal(plan.stages.find((stage) => stage.id === 'stop-0')!.status, 'skipped');
});

test('a deployment gone between its deploy and its run fails that run, and the stop still cleans the host', async () => {
  const { runner, calls, started } = fakePlanRunner({ occupant: () => null });
  await runner.start(fakePlanSpec({ targets: [{ templateId: 'node', variant: 'async' }] }));
  const plan = (await runner.settled()) as PlanState;
  assert.equal(started.length, 0);
  assert.deepEqual(calls, ['deploy node/async', 'stop']);
  assert.match(plan.message ?? '', /Node is no longer running on host2: see the Templates page for its log/);
});

test('a plan that reverts its presets holds what it applies (no pending revert while it runs) and lets go at its end; one that keeps them holds nothing', async () => {
  const reverting = fakePlanRunner();
  await reverting.runner.start(fakePlanSpec({ ...twoClients, revertPresets: true, presets: { client: clientPreset, server: null } }));
  await reverting.runner.settled();
  assert.deepEqual(reverting.presetHolds, ['plan "sync vs async" holds host1', 'plan "sync vs async" holds host3', 'release host1', 'release host3']);
  const keeping = fakePlanRunner();
  await keeping.runner.start(fakePlanSpec({ ...twoClients, revertPresets: false, presets: { client: clientPreset, server: null } }));
  await keeping.runner.settled();
  assert.ok(!keeping.presetHolds.some((line) => line.includes('holds')), 'kept presets are pending reverts from the start');
});
