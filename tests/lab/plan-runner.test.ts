// The wizard's plan runner on the two-host lab: a preset applied on bl-server as reviewed, two
// variants of the Node template deployed and loaded one after another as their own sessions, the
// server stopped after each and the preset reverted at the end; Cancel during a load stops it and
// still stops the server; a preset whose host changed since the review stops the plan before any load.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { PlanState } from '../../app/plans/plan.ts';
import type { PresetPlan } from '../../app/presets/preset-plan.ts';
import type { Session } from '../../app/sessions/sessions.ts';
import type { StoredRun } from '../../app/runs/runs.ts';
import type { Services } from '../../main/services/services.ts';
import { openLabBackend, type LabBackend } from '../support/lab-backend.ts';
import { labSkipReason } from '../support/lab-hosts.ts';
import { labExec } from './lab.ts';

const skip = labSkipReason();
const PORT = 18451;
const PROFILE = { target: `http://10.231.5.3:${PORT}`, request: { path: '/hello' }, load: { model: 'closed', connections: 4, durationS: 2 }, pauseS: 0 };

async function sysctl(key: string): Promise<string> {
  const result = await labExec('server', ['sysctl', '-n', key], { instance: 'plans' });
  return result.stdout.trim().replace(/\s+/g, ' ');
}

describe('plan runner on the lab', { skip: skip ?? false }, () => {
  let lab: LabBackend;
  let services: Services;
  let clientId: number;
  let serverId: number;
  let ok: LabBackend['ok'];
  const progress: PlanState[] = [];
  const waiters = new Set<(state: PlanState) => void>();

  /** The first plan progress event from now on for which `ok` holds (bounded by `timeoutMs`). */
  function nextProgress(ok: (state: PlanState) => boolean, what: string, timeoutMs = 60_000): Promise<PlanState> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no plan progress with ${what} within ${timeoutMs} ms`));
      }, timeoutMs);
      const check = (state: PlanState) => {
        if (!ok(state)) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve(state);
      };
      waiters.add(check);
    });
  }

  before(async () => {
    lab = await openLabBackend('plans', 'benchlab-plan-lab-');
    ({ services, clientId, serverId, ok } = lab);
    services.bus.subscribe('plans.progress', (state) => {
      progress.push(state);
      for (const check of [...waiters]) check(state);
    });
  });

  after(async () => {
    if (!lab) return;
    await services.plans.cancel().catch(() => undefined);
    await services.templates.stop(serverId).catch(() => undefined);
    await services.presets.revert(serverId).catch(() => undefined);
    lab.close();
  });

  test('preset, two variants as two sessions, server stopped after each, preset reverted', async () => {
    const before = await sysctl('net.ipv4.tcp_fin_timeout');
    const serverStates: string[] = [];
    const unwatch = services.bus.subscribe('hosts.connection', (connection) => connection.hostId === serverId && serverStates.push(connection.state));
    const presetPlan = await ok<PresetPlan>('presets.plan', { presetId: 'load-client', hostId: serverId });
    progress.length = 0;
    // Listening before the start: the first load's start is an event that must not be missed.
    const firstLoadRunning = nextProgress((state) => state.stages.find((stage) => stage.id === 'load-0')?.status === 'running', 'load-0 running', 180_000);
    const started = await ok<PlanState>('plans.start', {
      name: 'Lab plan',
      clientHostId: clientId,
      serverHostId: serverId,
      presets: { client: null, server: { presetId: 'load-client', planId: presetPlan.planId } },
      revertPresets: true,
      targets: [
        { templateId: 'node', variant: 'async', port: PORT },
        { templateId: 'node', variant: 'sync', port: PORT },
      ],
      profile: PROFILE,
      tags: ['lab-plan'],
    });
    assert.equal(started.status, 'running');
    assert.deepEqual(
      started.stages.map((stage) => stage.id),
      ['preset-server', 'deploy-0', 'load-0', 'stop-0', 'deploy-1', 'load-1', 'stop-1', 'revert-server'],
    );

    // While the first load runs, the preset is in effect on the server.
    await firstLoadRunning;
    assert.equal(await sysctl('net.ipv4.tcp_fin_timeout'), '15');

    const final = (await services.plans.settled())!;
    assert.equal(final.status, 'completed', final.message ?? '');
    assert.deepEqual(final.stages.map((stage) => stage.status), Array(8).fill('done'));
    assert.equal(final.sessionIds.length, 2);
    assert.equal(await sysctl('net.ipv4.tcp_fin_timeout'), before, 'the revert put the host back');
    unwatch();
    assert.deepEqual(serverStates.slice(0, 2), ['connecting', 'connected'], 'the preset has limits: the server host is logged in again');
    assert.match(final.stages[0]!.detail ?? '', /reconnected, so the load and the server get the new limits/);

    const sessions = await Promise.all(final.sessionIds.map((id) => ok<Session>('sessions.get', { id })));
    assert.deepEqual(sessions.map((session) => session.name), ['Lab plan — Node.js (node:http) · async', 'Lab plan — Node.js (node:http) · sync']);
    for (const session of sessions) {
      assert.equal(session.status, 'completed');
      assert.deepEqual(session.tags, ['lab-plan']);
      assert.equal(session.serverHostId, serverId);
      // What the server ran with, from its deployment: the Node on the host and the bundled pg.
      assert.deepEqual(Object.keys(session.config.components ?? {}).sort(), ['node', 'pg'], JSON.stringify(session.config));
    }
    const runs = await Promise.all(final.sessionIds.map((sessionId) => ok<StoredRun[]>('runs.list', { sessionId })));
    assert.deepEqual(runs.map((list) => list.map((run) => `${run.templateId}/${run.variant}`)), [['node/async'], ['node/sync']]);
    for (const list of runs) assert.ok(list[0]!.summary && list[0]!.summary.requests > 0, 'each session measured requests');

    // The stages ran in order: each deploy was done before its load started, the stop after it.
    const order: string[] = [];
    for (const state of progress) for (const stage of state.stages) if (stage.status === 'running' && order.at(-1) !== stage.id) order.push(stage.id);
    assert.deepEqual([...new Set(order)], ['preset-server', 'deploy-0', 'load-0', 'stop-0', 'deploy-1', 'load-1', 'stop-1', 'revert-server']);
    assert.equal(services.templates.deployments().find((deployment) => deployment.hostId === serverId)?.state, 'stopped');
  });

  test('Cancel during a load stops it, keeps the session, and still stops the server', async () => {
    const loadRunning = nextProgress(
      (state) => {
        const load = state.stages.find((stage) => stage.id === 'load-0');
        return load?.status === 'running' && load.sessionId !== null && /running/.test(load.detail ?? '');
      },
      'load-0 running its session',
      60_000,
    );
    const started = await ok<PlanState>('plans.start', {
      name: 'Lab cancel',
      clientHostId: clientId,
      serverHostId: serverId,
      presets: { client: null, server: null },
      targets: [{ templateId: 'node', variant: 'async', port: PORT }, { templateId: 'node', variant: 'sync', port: PORT }],
      profile: { ...PROFILE, load: { model: 'closed', connections: 2, durationS: 60 } },
    });
    assert.equal(started.stages.length, 6);
    await loadRunning;
    const cancelled = await ok<PlanState>('plans.cancel', {});
    assert.equal(cancelled.status, 'cancelled');
    const byId = Object.fromEntries(cancelled.stages.map((stage) => [stage.id, stage.status]));
    assert.deepEqual(byId, { 'deploy-0': 'done', 'load-0': 'cancelled', 'stop-0': 'done', 'deploy-1': 'cancelled', 'load-1': 'cancelled', 'stop-1': 'cancelled' });
    const session = await ok<Session>('sessions.get', { id: cancelled.sessionIds[0] });
    assert.equal(session.status, 'cancelled');
    assert.equal(services.templates.deployments().find((deployment) => deployment.hostId === serverId)?.state, 'stopped');
  });

  test('a preset whose host changed since the review stops the plan before anything is deployed', async () => {
    const final0 = await ok<PlanState>('plans.start', {
      name: 'Lab stale preset',
      clientHostId: clientId,
      serverHostId: serverId,
      presets: { client: null, server: { presetId: 'load-client', planId: '0123456789abcdef' } },
      targets: [{ templateId: 'node', variant: 'async', port: PORT }],
      profile: PROFILE,
    });
    assert.equal(final0.status, 'running');
    const final = (await services.plans.settled())!;
    assert.equal(final.status, 'failed');
    assert.match(final.message ?? '', /changed since the plan was made/);
    assert.deepEqual(final.stages.map((stage) => stage.status), ['failed', 'skipped', 'skipped', 'skipped']);
    assert.deepEqual(final.sessionIds, []);
  });

  test('an unknown variant is refused before anything starts', async () => {
    await assert.rejects(
      ok('plans.start', { name: 'Bad', clientHostId: clientId, serverHostId: serverId, presets: { client: null, server: null }, targets: [{ templateId: 'node', variant: 'turbo' }], profile: PROFILE }),
      /Node.js \(node:http\) has no variant "turbo" \(async, sync\)/,
    );
  });
});
