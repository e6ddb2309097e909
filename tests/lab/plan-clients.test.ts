// A plan with two load clients on a lab instance of its own (planclients: bl-client, bl-client2 and
// bl-server): the client preset is applied on each client as the plan reviewed there, in effect on
// both while the load runs from both, and reverted on both at the end; a preset that can no longer
// be applied on the second client fails the plan naming it, and the first client is put back
// before anything is deployed.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { PlanState } from '../../app/plans/plan.ts';
import type { PresetPlan } from '../../app/presets/preset-plan.ts';
import { labSkipReason } from '../support/lab-hosts.ts';
import { openMultiClientLab, type MultiClientLab } from '../support/lab-clients.ts';
import { labExec } from './lab.ts';

const skip = labSkipReason();
const INSTANCE = 'planclients';
const PORT = 18463;
const FIN_TIMEOUT = 'net.ipv4.tcp_fin_timeout';
const PROFILE = { target: `http://10.231.20.3:${PORT}`, request: { path: '/hello' }, load: { model: 'closed', connections: 4, durationS: 2 }, pauseS: 0 };

describe('a plan from two clients with a client preset', { skip: skip ?? false }, () => {
  let lab: MultiClientLab;

  /** The sysctl on each client, in client order (each client is its own network namespace). */
  const finTimeouts = () => Promise.all(lab.clientKeys.map(async (key) => (await labExec(key, ['sysctl', '-n', FIN_TIMEOUT], { instance: INSTANCE })).stdout.trim()));
  const planOn = async (hostId: number) => (await lab.ok<PresetPlan>('presets.plan', { presetId: 'load-client', hostId })).planId;

  before(async () => {
    lab = await openMultiClientLab(INSTANCE, 'benchlab-plan-clients-', 2);
  });

  after(async () => {
    if (!lab) return;
    await lab.services.plans.cancel().catch(() => undefined);
    await lab.services.templates.stop(lab.serverId).catch(() => undefined);
    for (const hostId of lab.clientIds) await lab.services.presets.revert(hostId).catch(() => undefined);
    await lab.close();
  });

  test('applied on both clients, in effect on both during the load, reverted on both', async () => {
    const before = await finTimeouts();
    assert.ok(before.every((value) => value !== '15'), `the preset's value is not in effect yet: ${before.join(', ')}`);
    const planIds = await Promise.all(lab.clientIds.map(planOn));
    let duringLoad: string[] | null = null;
    let reading: Promise<void> | null = null;
    const unwatch = lab.services.bus.subscribe('plans.progress', (state) => {
      if (reading || state.stages.find((stage) => stage.id === 'load-0')?.status !== 'running') return;
      reading = finTimeouts().then((values) => {
        duringLoad = values;
      });
    });
    const started = await lab.ok<PlanState>('plans.start', {
      name: 'Two tuned clients',
      clientHostId: lab.clientIds[0],
      clients: lab.clientIds.map((hostId) => ({ hostId })),
      serverHostId: lab.serverId,
      presets: { client: { presetId: 'load-client', planId: planIds[0], morePlanIds: planIds.slice(1) }, server: null },
      revertPresets: true,
      targets: [{ templateId: 'node', variant: 'async', port: PORT }],
      profile: PROFILE,
    });
    assert.deepEqual(
      started.stages.map((stage) => stage.label.replace(/: GET .*/, '')),
      [
        'Apply preset "Load client" on lab-client',
        'Apply preset "Load client" on lab-client2',
        'Deploy Node.js (node:http) · async on lab-server',
        'Load Node.js (node:http) · async from lab-client, lab-client2',
        'Stop Node.js (node:http) · async on lab-server',
        'Revert lab-client to its settings before the preset',
        'Revert lab-client2 to its settings before the preset',
      ],
    );
    const final = (await lab.services.plans.settled())!;
    unwatch();
    await reading;
    assert.equal(final.status, 'completed', final.message ?? '');
    assert.deepEqual(final.stages.map((stage) => stage.status), Array(7).fill('done'));
    assert.deepEqual(duringLoad, ['15', '15'], 'the preset was in effect on both clients while the load ran');
    assert.deepEqual(await finTimeouts(), before, 'both clients are back as they were');
  });

  test('a preset that no longer applies on the second client names it and puts the first back', async () => {
    await lab.services.plans.settled(); // the plan before, should it have ended its test early
    const before = await finTimeouts();
    const final0 = await lab.ok<PlanState>('plans.start', {
      name: 'Second client changed',
      clientHostId: lab.clientIds[0],
      clients: lab.clientIds.map((hostId) => ({ hostId })),
      serverHostId: lab.serverId,
      presets: { client: { presetId: 'load-client', planId: await planOn(lab.clientIds[0]!), morePlanIds: ['0123456789abcdef'] }, server: null },
      revertPresets: false,
      targets: [{ templateId: 'node', variant: 'async', port: PORT }],
      profile: PROFILE,
    });
    assert.equal(final0.status, 'running');
    const final = (await lab.services.plans.settled())!;
    assert.equal(final.status, 'failed');
    assert.match(final.message ?? '', /^Apply preset "Load client" on lab-client2: .*changed since the plan was made.*; what the plan had changed is put back: lab-client reverted$/);
    assert.deepEqual(final.stages.map((stage) => `${stage.id}:${stage.status}`), ['preset-client-0:done', 'preset-client-1:failed', 'deploy-0:skipped', 'load-0:skipped', 'stop-0:skipped']);
    assert.deepEqual(final.sessionIds, []);
    assert.deepEqual(await finTimeouts(), before, 'the first client is back as it was');
  });
});
