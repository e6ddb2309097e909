// A preset's network side on the lab (instance `netem`): tc is there inside the hosts' namespaces; a
// bandwidth on bl9-server's egress (where a large file's answers leave) holds a closed load of the
// 43 KB file below what the same load got without it, and under the limit; tc reads the setting
// back and the session records it as in effect; revert, and a revert pending from a Benchlab that never reverted (taken up by the next one
// on the same store), leave `tc qdisc show` byte for byte as it was. A delay needs netem: applied and
// reverted where the kernel has it, refused before anything changes where it does not. An interface
// that does not exist is refused by the plan.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { SessionHostFacts } from '../../app/hosts/host-facts.ts';
import type { ApplyResult, RevertResult } from '../../app/presets/presets-contract.ts';
import type { PresetPlan } from '../../app/presets/preset-plan.ts';
import { PresetDefinition, type PresetDefinitionInput } from '../../app/presets/presets.ts';
import type { LiveRun } from '../../app/runs/runs.ts';
import { createServices } from '../../main/services/services.ts';
import { openLabBackend, type LabBackend } from '../support/lab-backend.ts';
import { labSkipReason } from '../support/lab-hosts.ts';
import { until } from '../support/until.ts';
import { labExec } from './lab.ts';

const skip = labSkipReason();
const INSTANCE = 'netem';
const PORT = 18935;
/** Low enough that the lab's veth, even on a busy machine, passes far more without it. */
const RATE_MBIT = 10;
const FILE_BYTES = 44_032;

async function qdiscs(role: 'client' | 'server'): Promise<string> {
  const result = await labExec(role, ['tc', 'qdisc', 'show', 'dev', 'eth0'], { instance: INSTANCE });
  assert.equal(result.code, 0, result.stderr);
  return result.stdout;
}

describe('network presets with tc on the lab', { skip: skip ?? false, concurrency: false }, () => {
  let lab: LabBackend;
  let target: string;
  const original: Record<'client' | 'server', string> = { client: '', server: '' };

  const save = (definition: PresetDefinitionInput) => lab.services.presetCatalog.save(PresetDefinition.parse(definition)).id;
  const plan = (presetId: string, hostId: number) => lab.ok<PresetPlan>('presets.plan', { presetId, hostId });
  const apply = async (presetId: string, hostId: number) => lab.ok<ApplyResult>('presets.apply', { presetId, hostId, planId: (await plan(presetId, hostId)).planId });

  /** Answers per second of a short closed load of the 43 KB file, and its session. */
  async function fileLoad(): Promise<{ rate: number; sessionId: number }> {
    const started = await lab.ok<LiveRun>('runs.start', {
      clientHostId: lab.clientId,
      serverHostId: lab.serverId,
      profile: { target, request: { path: '/file' }, load: { model: 'closed', connections: 8, durationS: 3 }, warmupS: 1 },
    });
    const run = await until(
      async () => {
        const { run: live } = await lab.ok<{ run: LiveRun }>('runs.live', {});
        return live.sessionId === started.sessionId && ['completed', 'failed', 'cancelled'].includes(live.status) ? live : null;
      },
      'the load to end',
      60_000,
      200,
    );
    assert.equal(run.status, 'completed', run.message ?? '');
    const [stored] = await lab.ok<Array<{ summary: { requests: number; requestsPerSecond: number; failed: number } }>>('runs.list', { sessionId: started.sessionId });
    assert.ok(stored!.summary.requests > 0, 'the load got answers');
    return { rate: stored!.summary.requestsPerSecond, sessionId: started.sessionId };
  }
  const fileRate = async () => (await fileLoad()).rate;

  before(async () => {
    lab = await openLabBackend(INSTANCE, 'benchlab-netem-lab-', { sharedCaches: true });
    const deployment = await lab.ok<{ url: string }>('templates.deploy', { hostId: lab.serverId, templateId: 'node', port: PORT });
    target = deployment.url.replace(/\/$/, '');
    original.client = await qdiscs('client');
    original.server = await qdiscs('server');
  });

  after(async () => {
    if (!lab) return;
    // Leave the lab as it was, whatever happened above.
    for (const hostId of [lab.clientId, lab.serverId]) if (lab.services.changes.unreverted(hostId).length > 0) await lab.services.presets.revert(hostId).catch(() => undefined);
    await lab.call('templates.stop', { hostId: lab.serverId });
    await lab.close();
  });

  test('the hosts have tc inside their namespaces, and an untouched veth has the kernel default', async () => {
    for (const role of ['client', 'server'] as const) {
      const version = await labExec(role, ['tc', '-V'], { instance: INSTANCE });
      assert.equal(version.code, 0, `tc in bl9-${role}: ${version.stderr}`);
      assert.match(version.stdout, /iproute2/);
      assert.match(original[role], /^qdisc \S+ 0: root/);
    }
  });

  test('a bandwidth on the server holds the file load below what it got without, and under the limit; revert leaves tc as it was', async (t) => {
    const without = await fileRate();
    const presetId = save({ name: 'Lab link', network: { rateMbit: RATE_MBIT } });
    const planned = await plan(presetId, lab.serverId);
    assert.equal(planned.network?.interface, 'eth0', 'auto: the interface routing to Benchlab');
    assert.deepEqual(planned.network?.rows, [{ setting: 'rate', label: 'bandwidth', current: null, next: `${RATE_MBIT} Mbit/s`, change: 'change' }]);
    assert.equal(planned.changes, 1);

    const applied = await apply(presetId, lab.serverId);
    assert.equal(applied.outcome, 'applied');
    assert.deepEqual(
      applied.verdicts.map((verdict) => [verdict.kind, verdict.key, verdict.observed, verdict.status]),
      [['network', 'eth0 bandwidth', `${RATE_MBIT} Mbit/s`, 'applied']],
    );
    assert.match(await qdiscs('server'), /^qdisc tbf b1ab: root .*rate 10Mbit/);
    assert.equal(await qdiscs('client'), original.client, 'the client is untouched');

    const { rate: limited, sessionId } = await fileLoad();
    // The session records what took effect on its server: the bandwidth as tc read it back.
    const facts = await lab.ok<SessionHostFacts>('runs.hostFacts', { sessionId });
    assert.deepEqual(
      facts.server?.preset.effects?.map((effect) => [effect.kind, effect.key, effect.inEffect, effect.took]),
      [['network', 'eth0 bandwidth', `${RATE_MBIT} Mbit/s`, true]],
    );
    t.diagnostic(`43 KB answers/s: ${without.toFixed(0)} without the limit, ${limited.toFixed(0)} with ${RATE_MBIT} Mbit/s`);
    assert.ok(limited < without, `with the limit ${limited} answers/s, without ${without}`);
    // The link is what holds it: the answers' bits stay under the limit (headers and the bucket's burst aside).
    assert.ok((limited * FILE_BYTES * 8) / 1e6 <= RATE_MBIT * 1.1, `${limited} answers/s of ${FILE_BYTES} bytes exceed ${RATE_MBIT} Mbit/s`);

    const reverted = await lab.ok<RevertResult>('presets.revert', { hostId: lab.serverId });
    assert.equal(reverted.outcome, 'reverted', JSON.stringify(reverted));
    assert.equal(reverted.network?.status, 'restored');
    assert.equal(await qdiscs('server'), original.server, 'tc qdisc show is as it was');
  });

  test('a revert pending from a Benchlab that never reverted is done by the next one on the same store', async () => {
    const presetId = save({ name: 'Lab link left', network: { rateMbit: RATE_MBIT } });
    assert.equal((await apply(presetId, lab.clientId)).outcome, 'applied');
    assert.notEqual(await qdiscs('client'), original.client);

    const next = createServices({ dataDir: lab.dir, transport: 'cli', version: 'test' });
    try {
      assert.deepEqual(next.presets.pending().map((pending) => [pending.hostId, pending.presets]), [[lab.clientId, ['Lab link left']]]);
      await next.connections.connect(lab.clientId);
      const reverted = await next.presets.revert(lab.clientId);
      assert.equal(reverted.outcome, 'reverted', JSON.stringify(reverted));
      assert.equal(await qdiscs('client'), original.client, 'tc qdisc show is as it was');
      assert.deepEqual(next.presets.pending(), []);
    } finally {
      await next.close();
    }
  });

  test('a delay is applied and reverted where the kernel has netem, and refused before anything changes where it has not', async () => {
    const presetId = save({ name: 'Lab delay', network: { delayMs: 5, rateMbit: 100 } });
    const config = await labExec('client', ['sh', '-c', 'zcat /proc/config.gz 2>/dev/null | grep -E "CONFIG_NET_SCH_NETEM[ =]" || true'], { instance: INSTANCE });
    const noNetem = /# CONFIG_NET_SCH_NETEM is not set/.test(config.stdout);
    if (noNetem) {
      await assert.rejects(plan(presetId, lab.clientId), /lab-client has no netem qdisc|the kernel of lab-client has no netem qdisc/);
      assert.equal(await qdiscs('client'), original.client);
      assert.equal(lab.services.changes.unreverted(lab.clientId).length, 0, 'nothing was journalled');
      return;
    }
    const applied = await apply(presetId, lab.clientId);
    assert.deepEqual(
      applied.verdicts.map((verdict) => [verdict.key, verdict.status]),
      [
        ['eth0 bandwidth', 'applied'],
        ['eth0 delay', 'applied'],
      ],
    );
    assert.match(await qdiscs('client'), /^qdisc netem b1ab: root/);
    assert.equal((await lab.ok<RevertResult>('presets.revert', { hostId: lab.clientId })).outcome, 'reverted');
    assert.equal(await qdiscs('client'), original.client);
  });

  test('an interface that does not exist is refused by the plan', async () => {
    const presetId = save({ name: 'Lab eth9', network: { interface: 'eth9', rateMbit: 10 } });
    await assert.rejects(plan(presetId, lab.serverId), /there is no interface "eth9"/);
    assert.equal(await qdiscs('server'), original.server);
  });
});
