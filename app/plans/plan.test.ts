// Tests of plans: the PlanSpec schema (targets, presets on one host, repeats, defaults), the stages
// in the order the runner works through them (repeats interleaved), and the load and plan
// estimates with their formatting.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { LoadProfile, type LoadProfileInput } from '../runs/load-profile.ts';
import {
  ESTIMATE_S,
  formatDuration,
  loadEstimate,
  MAX_PLAN_TARGETS,
  MAX_REPEATS,
  PlanSpec,
  planEstimate,
  planOrder,
  planStages,
  repeatGroup,
  unrevertedHosts,
  type PlanNames,
  type PlanSpecInput,
} from './plan.ts';

const PLAN_A = '0123456789abcdef';
const PLAN_B = 'fedcba9876543210';

const closedProfile: LoadProfileInput = {
  target: 'http://10.231.0.3:8080',
  request: { path: '/hello' },
  load: { model: 'closed', connections: 10, durationS: 10 },
};

function specInput(overrides: Partial<PlanSpecInput> = {}): PlanSpecInput {
  return {
    name: 'wrk seed',
    clientHostId: 1,
    serverHostId: 2,
    presets: { client: null, server: null },
    targets: [{ templateId: 'node', variant: 'async' }],
    profile: closedProfile,
    ...overrides,
  };
}

function spec(overrides: Partial<PlanSpecInput> = {}): PlanSpec {
  return PlanSpec.parse(specInput(overrides));
}

/** The first issue of a refused spec, as `path: message`. */
function problem(overrides: Partial<PlanSpecInput>): string {
  const parsed = PlanSpec.safeParse(specInput(overrides));
  assert.equal(parsed.success, false, 'expected the spec to be refused');
  const issue = parsed.error!.issues[0]!;
  return `${issue.path.map(String).join('.')}: ${issue.message}`;
}

const names: PlanNames = {
  host: (id) => `host${id}`,
  preset: (id) => `P:${id}`,
  template: (id, variant) => `${id}/${variant}`,
};

function profile(input: Partial<LoadProfileInput>): LoadProfile {
  return LoadProfile.parse({ ...closedProfile, ...input });
}

describe('PlanSpec', () => {
  test('a minimal spec gets its defaults', () => {
    const parsed = spec();
    assert.equal(parsed.revertPresets, false);
    assert.deepEqual(parsed.tags, []);
    assert.equal(parsed.studyId, null);
    assert.deepEqual(parsed.targets, [{ templateId: 'node', variant: 'async', knobs: {} }]);
    assert.equal(parsed.profile.request.method, 'GET');
  });

  test('no targets: choose at least one template', () => {
    assert.equal(problem({ targets: [] }), 'targets: choose at least one template');
  });

  test('the same template and variant twice is refused', () => {
    assert.equal(
      problem({ targets: [{ templateId: 'node', variant: 'async' }, { templateId: 'node', variant: 'async' }] }),
      'targets: lists the same template and variant twice',
    );
  });

  test('the same knobs in another order are still the same target', () => {
    assert.match(
      problem({
        targets: [
          { templateId: 'node', variant: 'async', knobs: { workers: 2, cacheFile: true } },
          { templateId: 'node', variant: 'async', knobs: { cacheFile: true, workers: 2 } },
        ],
      }),
      /^targets: lists the same template and variant twice$/,
    );
  });

  test('one template in two variants, or one variant with other knobs, is allowed', () => {
    const parsed = spec({
      targets: [
        { templateId: 'node', variant: 'async' },
        { templateId: 'node', variant: 'sync' },
        { templateId: 'node', variant: 'async', knobs: { workers: 4 } },
      ],
    });
    assert.equal(parsed.targets.length, 3);
  });

  test(`more than ${MAX_PLAN_TARGETS} targets is refused`, () => {
    const targets = Array.from({ length: MAX_PLAN_TARGETS + 1 }, (_, i) => ({ templateId: 'node', variant: `v${i}` }));
    assert.equal(problem({ targets }), `targets: choose at most ${MAX_PLAN_TARGETS} templates or variants`);
    assert.equal(spec({ targets: targets.slice(0, MAX_PLAN_TARGETS) }).targets.length, MAX_PLAN_TARGETS);
  });

  test('a bad template id is refused with the target index', () => {
    assert.equal(problem({ targets: [{ templateId: 'Node!', variant: 'async' }] }), 'targets.0.templateId: must be a template id');
  });

  test('a planId that is not 16 hex digits is refused', () => {
    assert.equal(
      problem({ presets: { client: { presetId: 'wrk-seed', planId: 'not-a-plan' }, server: null } }),
      'presets.client.planId: must be the planId of a preset plan',
    );
    assert.equal(
      problem({ presets: { client: null, server: { presetId: 'wrk-seed', planId: PLAN_A.toUpperCase() } } }),
      'presets.server.planId: must be the planId of a preset plan',
    );
    assert.equal(
      problem({ presets: { client: null, server: { presetId: 'wrk-seed', planId: `${PLAN_A}0` } } }),
      'presets.server.planId: must be the planId of a preset plan',
    );
  });

  test('one host for client and server with two presets is refused at presets.server', () => {
    assert.equal(
      problem({
        clientHostId: 3,
        serverHostId: 3,
        presets: { client: { presetId: 'load-client', planId: PLAN_A }, server: { presetId: 'wrk-seed', planId: PLAN_B } },
      }),
      'presets.server: the client and the server are one host: choose one preset for it',
    );
  });

  test('one host with one preset, or two hosts with two presets, is allowed', () => {
    assert.doesNotThrow(() => spec({ clientHostId: 3, serverHostId: 3, presets: { client: { presetId: 'wrk-seed', planId: PLAN_A }, server: null } }));
    assert.doesNotThrow(() => spec({ clientHostId: 3, serverHostId: 3, presets: { client: null, server: { presetId: 'wrk-seed', planId: PLAN_A } } }));
    assert.doesNotThrow(() =>
      spec({ presets: { client: { presetId: 'load-client', planId: PLAN_A }, server: { presetId: 'wrk-seed', planId: PLAN_B } } }),
    );
  });

  test('unknown fields and a bad profile are refused', () => {
    assert.match(problem({ extra: true } as Partial<PlanSpecInput>), /unrecognized|extra/i);
    assert.equal(
      problem({ profile: { ...closedProfile, load: { model: 'closed', connections: 0, durationS: 10 } } }),
      'profile.load.connections: must be at least 1',
    );
  });
});

describe('repeats', () => {
  test('one run of each target unless asked; 1 to MAX_REPEATS whole runs', () => {
    assert.equal(spec().repeats, 1);
    assert.equal(spec({ repeats: MAX_REPEATS }).repeats, MAX_REPEATS);
    assert.equal(problem({ repeats: 0 }), 'repeats: must be at least 1');
    assert.equal(problem({ repeats: MAX_REPEATS + 1 }), `repeats: must be at most ${MAX_REPEATS}`);
    assert.equal(problem({ repeats: 2.5 }), 'repeats: must be a whole number');
  });

  test('interleaved: A B A B A B, never A A A B B B', () => {
    const plan = spec({ repeats: 3, targets: [{ templateId: 'node', variant: 'async' }, { templateId: 'node', variant: 'sync' }] });
    assert.deepEqual(
      planOrder(plan).map(({ target, round }) => `${'AB'[target]}${round}`),
      ['A1', 'B1', 'A2', 'B2', 'A3', 'B3'],
    );
  });

  test('each repeat deploys, loads and stops again, with its round in the id, label and stage', () => {
    const plan = spec({ repeats: 2, targets: [{ templateId: 'node', variant: 'async' }, { templateId: 'node', variant: 'sync' }] });
    const stages = planStages(plan, names);
    assert.deepEqual(
      stages.filter((stage) => stage.kind === 'load').map((stage) => [stage.id, stage.target, stage.round]),
      [
        ['load-0-1', 0, 1],
        ['load-1-1', 1, 1],
        ['load-0-2', 0, 2],
        ['load-1-2', 1, 2],
      ],
    );
    assert.deepEqual(
      stages.slice(0, 3).map((stage) => stage.id),
      ['deploy-0-1', 'load-0-1', 'stop-0-1'],
    );
    assert.equal(stages[4]!.label, 'Load node/sync (run 1 of 2) from host1: GET /hello, c=10, 10 s');
    assert.equal(new Set(stages.map((stage) => stage.id)).size, stages.length);
    assert.deepEqual(planEstimate(plan), { seconds: 4 * (ESTIMATE_S.deploy + 10 + ESTIMATE_S.stop), byCount: false });
  });

  test('one repeat group per target and plan run', () => {
    assert.notEqual(repeatGroup(1, '2026-01-01T00:00:00.000Z', 0), repeatGroup(1, '2026-01-01T00:00:00.000Z', 1));
    assert.notEqual(repeatGroup(1, '2026-01-01T00:00:00.000Z', 0), repeatGroup(1, '2026-01-02T00:00:00.000Z', 0));
  });
});

describe('planStages', () => {
  test('without presets: deploy, load, stop per target, with the target index, all pending', () => {
    const stages = planStages(spec({ targets: [{ templateId: 'node', variant: 'async' }, { templateId: 'vertx', variant: 'eventloop' }] }), names);
    assert.deepEqual(
      stages.map((stage) => [stage.id, stage.kind, stage.target]),
      [
        ['deploy-0', 'deploy', 0],
        ['load-0', 'load', 0],
        ['stop-0', 'stop', 0],
        ['deploy-1', 'deploy', 1],
        ['load-1', 'load', 1],
        ['stop-1', 'stop', 1],
      ],
    );
    for (const stage of stages) {
      assert.equal(stage.status, 'pending');
      assert.equal(stage.detail, null);
      assert.equal(stage.sessionId, null);
      assert.equal(stage.startedAt, null);
      assert.equal(stage.endedAt, null);
    }
    assert.equal(stages[0]!.label, 'Deploy node/async on host2');
    assert.equal(stages[1]!.label, 'Load node/async from host1: GET /hello, c=10, 10 s');
    assert.equal(stages[2]!.label, 'Stop node/async on host2');
    assert.equal(stages[3]!.label, 'Deploy vertx/eventloop on host2');
    assert.deepEqual(
      stages.map((stage) => stage.estimateS),
      [ESTIMATE_S.deploy, 10, ESTIMATE_S.stop, ESTIMATE_S.deploy, 10, ESTIMATE_S.stop],
    );
  });

  test('presets come first, only for the hosts given one, client before server', () => {
    const onlyServer = planStages(spec({ presets: { client: null, server: { presetId: 'wrk-seed', planId: PLAN_A } } }), names);
    assert.deepEqual(
      onlyServer.map((stage) => stage.id),
      ['preset-server', 'deploy-0', 'load-0', 'stop-0'],
    );
    assert.equal(onlyServer[0]!.label, 'Apply preset "P:wrk-seed" on host2');
    assert.equal(onlyServer[0]!.kind, 'preset');
    assert.equal(onlyServer[0]!.target, null);
    assert.equal(onlyServer[0]!.estimateS, ESTIMATE_S.preset);

    const both = planStages(
      spec({ presets: { client: { presetId: 'load-client', planId: PLAN_A }, server: { presetId: 'wrk-seed', planId: PLAN_B } } }),
      names,
    );
    assert.deepEqual(
      both.slice(0, 2).map((stage) => stage.label),
      ['Apply preset "P:load-client" on host1', 'Apply preset "P:wrk-seed" on host2'],
    );
  });

  test('revert stages come last, only when revertPresets and only for hosts with a preset', () => {
    const presets = { client: { presetId: 'load-client', planId: PLAN_A }, server: null };
    assert.deepEqual(
      planStages(spec({ presets }), names).map((stage) => stage.kind),
      ['preset', 'deploy', 'load', 'stop'],
    );
    const reverted = planStages(spec({ presets, revertPresets: true }), names);
    assert.deepEqual(
      reverted.map((stage) => stage.id),
      ['preset-client', 'deploy-0', 'load-0', 'stop-0', 'revert-client'],
    );
    const revert = reverted.at(-1)!;
    assert.equal(revert.kind, 'revert');
    assert.equal(revert.label, 'Revert host1 to its settings before the preset');
    assert.equal(revert.target, null);
    assert.equal(revert.estimateS, ESTIMATE_S.revert);

    const both = planStages(
      spec({ revertPresets: true, presets: { client: { presetId: 'load-client', planId: PLAN_A }, server: { presetId: 'wrk-seed', planId: PLAN_B } } }),
      names,
    );
    assert.deepEqual(
      both.map((stage) => stage.id),
      ['preset-client', 'preset-server', 'deploy-0', 'load-0', 'stop-0', 'revert-client', 'revert-server'],
    );
  });

  test('with several clients the client preset has an apply and a revert stage on each client, and counts in the estimate', () => {
    const several = spec({
      clients: [{ hostId: 1 }, { hostId: 3 }],
      revertPresets: true,
      presets: { client: { presetId: 'load-client', planId: PLAN_A, morePlanIds: [PLAN_B] }, server: { presetId: 'wrk-seed', planId: PLAN_B } },
    });
    const stages = planStages(several, names);
    assert.deepEqual(
      stages.filter((stage) => stage.kind === 'preset' || stage.kind === 'revert').map((stage) => `${stage.id}: ${stage.label}`),
      [
        'preset-client-0: Apply preset "P:load-client" on host1',
        'preset-client-1: Apply preset "P:load-client" on host3',
        'preset-server: Apply preset "P:wrk-seed" on host2',
        'revert-client-0: Revert host1 to its settings before the preset',
        'revert-client-1: Revert host3 to its settings before the preset',
        'revert-server: Revert host2 to its settings before the preset',
      ],
    );
    const alone = spec({ clients: [{ hostId: 1 }, { hostId: 3 }], revertPresets: true, presets: { client: null, server: { presetId: 'wrk-seed', planId: PLAN_B } } });
    assert.equal(planEstimate(several).seconds - planEstimate(alone).seconds, 2 * (ESTIMATE_S.preset + ESTIMATE_S.revert));

    // Applied on both clients, reverted on the first only: the second and the server are pending.
    for (const stage of stages) stage.status = stage.kind === 'preset' || stage.id === 'revert-client-0' ? 'done' : 'pending';
    assert.deepEqual(unrevertedHosts({ stages }, several), [3, 2]);
  });

  test('revertPresets without presets adds no stage', () => {
    assert.deepEqual(
      planStages(spec({ revertPresets: true }), names).map((stage) => stage.kind),
      ['deploy', 'load', 'stop'],
    );
  });

  test('a sweep is listed step by step in the load label; a count-ended load says so', () => {
    const sweep = planStages(spec({ profile: { ...closedProfile, sweep: [10, 100, 1000] } }), names);
    assert.equal(sweep[1]!.label, 'Load node/async from host1: GET /hello, c=10, 10 s / c=100, 10 s / c=1000, 10 s');

    const counted = planStages(spec({ profile: { ...closedProfile, load: { model: 'closed', connections: 100, requests: 10_000 } } }), names);
    assert.equal(counted[1]!.label, 'Load node/async from host1: GET /hello, c=100, 10000 requests (ends by request count)');
  });

  test('stage ids are unique', () => {
    const stages = planStages(
      spec({
        revertPresets: true,
        presets: { client: { presetId: 'load-client', planId: PLAN_A }, server: { presetId: 'wrk-seed', planId: PLAN_B } },
        targets: [
          { templateId: 'node', variant: 'async' },
          { templateId: 'node', variant: 'sync' },
          { templateId: 'tomcat', variant: 'sync' },
        ],
      }),
      names,
    );
    assert.equal(stages.length, 2 + 3 * 3 + 2);
    assert.equal(new Set(stages.map((stage) => stage.id)).size, stages.length);
  });
});

describe('loadEstimate', () => {
  test('one timed step: its duration', () => {
    assert.deepEqual(loadEstimate(profile({})), { seconds: 10, byCount: false });
  });

  test('warm-up, every step, and a pause between steps (not after the last)', () => {
    // wrk seed: 10 s warm-up, 4 steps of 10 s, 5 s pauses between them.
    assert.deepEqual(loadEstimate(profile({ sweep: [10, 100, 1000, 10_000], warmupS: 10, pauseS: 5 })), { seconds: 10 + 4 * 10 + 3 * 5, byCount: false });
  });

  test('one step: the pause is not counted', () => {
    assert.deepEqual(loadEstimate(profile({ pauseS: 30 })), { seconds: 10, byCount: false });
  });

  test('open model "N requests over T s": T per step', () => {
    const gatling = profile({ load: { model: 'open', requests: 52_500, durationS: 30 }, sweep: [52_500, 60_000, 90_000, 120_000], pauseS: 10 });
    assert.deepEqual(loadEstimate(gatling), { seconds: 4 * 30 + 3 * 10, byCount: false });
  });

  test('a count-ended step: its count over a rate guessed from its connections, within its cap', () => {
    const counted = profile({ load: { model: 'closed', connections: 100, requests: 10_000 }, countStepCapS: 120 });
    assert.deepEqual(loadEstimate(counted), { seconds: 1, byCount: true });
    const capped = profile({ load: { model: 'closed', connections: 1, requests: 1_000_000 }, countStepCapS: 120 });
    assert.deepEqual(loadEstimate(capped), { seconds: 120, byCount: true });
  });

  test('a count-ended sweep: every step its own estimate, plus the pauses', () => {
    const counted = profile({ load: { model: 'closed', connections: 10, requests: 10_000 }, sweep: [10, 100], countStepCapS: 100, pauseS: 5 });
    assert.deepEqual(loadEstimate(counted), { seconds: 10 + 5 + 1, byCount: true });
  });

  test('a count-ended step after a warm-up: the warm-up is counted once', () => {
    const counted = profile({ load: { model: 'closed', connections: 100, requests: 10_000 }, warmupS: 10 });
    assert.deepEqual(loadEstimate(counted), { seconds: 10 + 1, byCount: true });
  });
});

describe('planEstimate', () => {
  test('targets × (deploy + load + stop), no presets', () => {
    const plan = spec({ targets: [{ templateId: 'node', variant: 'async' }, { templateId: 'node', variant: 'sync' }] });
    assert.deepEqual(planEstimate(plan), { seconds: 2 * (ESTIMATE_S.deploy + 10 + ESTIMATE_S.stop), byCount: false });
  });

  test('presets and their reverts are added per host with a preset', () => {
    const presets = { client: { presetId: 'wrk-seed', planId: PLAN_A }, server: { presetId: 'wrk-seed', planId: PLAN_B } };
    const profileInput: LoadProfileInput = { ...closedProfile, sweep: [10, 100, 1000, 10_000], warmupS: 10, pauseS: 5 };
    const targets = [
      { templateId: 'vertx', variant: 'eventloop' },
      { templateId: 'undertow', variant: 'nonblocking' },
      { templateId: 'undertow', variant: 'servlet' },
    ];
    const load = 10 + 4 * 10 + 3 * 5;
    const base = 2 * ESTIMATE_S.preset + 3 * (ESTIMATE_S.deploy + load + ESTIMATE_S.stop);
    assert.deepEqual(planEstimate(spec({ presets, targets, profile: profileInput })), { seconds: base, byCount: false });
    assert.deepEqual(planEstimate(spec({ presets, targets, profile: profileInput, revertPresets: true })), { seconds: base + 2 * ESTIMATE_S.revert, byCount: false });
    const onePreset = { client: null, server: presets.server };
    assert.deepEqual(planEstimate(spec({ presets: onePreset, targets, profile: profileInput, revertPresets: true })), {
      seconds: ESTIMATE_S.preset + 3 * (ESTIMATE_S.deploy + load + ESTIMATE_S.stop) + ESTIMATE_S.revert,
      byCount: false,
    });
  });

  test('equals the sum of its stages, rounded up', () => {
    const plan = spec({
      revertPresets: true,
      presets: { client: { presetId: 'load-client', planId: PLAN_A }, server: { presetId: 'wrk-seed', planId: PLAN_B } },
      targets: [{ templateId: 'node', variant: 'async' }, { templateId: 'node', variant: 'sync' }],
      profile: { ...closedProfile, load: { model: 'closed', connections: 10, durationS: 2.5 }, warmupS: 0.2 },
    });
    const sum = planStages(plan, names).reduce((total, stage) => total + stage.estimateS, 0);
    assert.equal(planEstimate(plan).seconds, Math.ceil(sum));
    assert.equal(Number.isInteger(planEstimate(plan).seconds), true);
  });

  test('a count-ended load is estimated from its profile, not as its 600 s cap', () => {
    const plan = spec({ profile: { ...closedProfile, load: { model: 'closed', connections: 100, requests: 10_000 } } });
    assert.deepEqual(planEstimate(plan), { seconds: ESTIMATE_S.deploy + 1 + ESTIMATE_S.stop, byCount: true });
  });
});

describe('formatDuration', () => {
  test('seconds, minutes, minutes and seconds, hours and minutes', () => {
    assert.equal(formatDuration(0), '0 s');
    assert.equal(formatDuration(45), '45 s');
    assert.equal(formatDuration(59.4), '59 s');
    assert.equal(formatDuration(59.6), '1 min');
    assert.equal(formatDuration(120), '2 min');
    assert.equal(formatDuration(125), '2 min 05 s');
    assert.equal(formatDuration(3599), '59 min 59 s');
    assert.equal(formatDuration(3600), '1 h 00 min');
    assert.equal(formatDuration(3900), '1 h 05 min');
    assert.equal(formatDuration(3 * 3600 + 59 * 60 + 59), '3 h 59 min');
  });
});
