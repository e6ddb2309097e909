// A preset asking more than the host allows, run by a plan on the lab: root's nofile 100000 stays
// at the hard limit the build machine caps it at (no CAP_SYS_RESOURCE), so the preset stage ends
// done with a warning that names the value in effect (never a plain done), and the session records
// each key as it took effect — the limit not taken with the value its processes got, the sysctl taken.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { PlanState } from '../../app/plans/plan.ts';
import type { PresetPlan } from '../../app/presets/preset-plan.ts';
import type { Preset } from '../../app/presets/presets.ts';
import { presetEffectsOf } from '../../app/sessions/host-diff.ts';
import { closePlanLab, openLabBackend, type LabBackend } from '../support/lab-backend.ts';
import { labSkipReason } from '../support/lab-hosts.ts';

const skip = labSkipReason();
const PORT = 18631;
const ASKED = '100000';

describe('a preset above what the host allows', { skip: skip ?? false }, () => {
  let lab: LabBackend;

  before(async () => {
    lab = await openLabBackend('tookeffect', 'benchlab-tookeffect-', { sharedCaches: true });
  });

  after(() => closePlanLab(lab));

  test('the stage warns with the value in effect, and the session records what took effect and what was asked', async () => {
    const { ok, serverId, clientId, services } = lab;
    const preset = await ok<Preset>('presets.save', {
      definition: {
        name: 'Above the cap',
        limits: [{ domain: 'root', type: '-', item: 'nofile', value: ASKED }],
        sysctls: [{ key: 'net.ipv4.tcp_fin_timeout', value: '21' }],
      },
    });
    const presetPlan = await ok<PresetPlan>('presets.plan', { presetId: preset.id, hostId: serverId });
    await ok<PlanState>('plans.start', {
      name: 'Took effect',
      clientHostId: clientId,
      serverHostId: serverId,
      presets: { client: null, server: { presetId: preset.id, planId: presetPlan.planId } },
      revertPresets: true,
      targets: [{ templateId: 'node', variant: 'async', port: PORT }],
      profile: { target: `http://${lab.targets.server.address}:${PORT}`, request: { path: '/hello' }, load: { model: 'closed', connections: 2, durationS: 1 }, pauseS: 0 },
    });
    const plan = (await services.plans.settled())!;
    assert.equal(plan.status, 'completed', plan.message ?? '');

    const stage = plan.stages.find((candidate) => candidate.id === 'preset-server')!;
    assert.equal(stage.status, 'done', 'applied, and reverted at the end');
    const warned = /root soft\+hard nofile: (\d+) \/ (\d+) in effect, asked 100000 \(hard limit (\d+) caps it/.exec(stage.warning ?? '');
    assert.ok(warned, `the stage warns, naming the value in effect: ${stage.warning ?? '(no warning)'} — ${stage.detail ?? ''}`);
    const [soft, hard] = [Number(warned[1]), Number(warned[2])];
    assert.ok(hard < Number(ASKED) && soft <= hard && Number(warned[3]) === hard, warned[0]);
    assert.match(stage.warning!, /^1 of 2 keys did not take effect/, 'the sysctl took');

    // The session's snapshot: each key as it took effect, the limit as its processes got it.
    const facts = services.hostFacts.ofSession(plan.sessionIds[0]!)!;
    const server = facts.server!;
    const effects = server.preset.effects ?? [];
    const nofile = effects.find((effect) => effect.key === 'root soft+hard nofile');
    assert.deepEqual(
      nofile && [nofile.took, nofile.asked, nofile.inEffect],
      [false, ASKED, `${server.limits.nofile.soft} / ${server.limits.nofile.hard}`],
      'what was asked, and what the session’s server login had',
    );
    const fin = effects.find((effect) => effect.key === 'net.ipv4.tcp_fin_timeout');
    assert.deepEqual(fin && [fin.took, fin.inEffect], [true, '21']);
    assert.match(presetEffectsOf(server) ?? '', /^net\.ipv4\.tcp_fin_timeout 21; root soft\+hard nofile: \d+ \/ \d+ in effect, asked 100000/);
  });
});
