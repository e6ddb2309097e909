// The wizard's draft as a plan file and back (renderer/src/features/plans/plan-file-draft.ts):
// a whole draft survives Save → the YAML text → Open unchanged; an unfinished one lists what it
// lacks; hosts come back by stored name or user@address:port; a study named by id fills what the
// file leaves out; what the wizard cannot hold as written is a note.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parsePlanFile, type PlanFile } from '../../app/plans/plan-file.ts';
import { formatPlanFile } from '../../app/plans/plan-file-format.ts';
import type { Study } from '../../app/plans/studies.ts';
import { LoadProfile } from '../../app/runs/load-profile.ts';
import { draftOfPlanFile, planFileOfDraft } from '../../renderer/src/features/plans/plan-file-draft.ts';
import { DEFAULT_WIZARD, specOf, type WizardContext, type WizardDraft } from '../../renderer/src/features/plans/wizard-draft.ts';
import { draftOfProfile } from '../../renderer/src/features/runs/profile-draft.ts';

const HOSTS = [
  { id: 1, name: 'lab-client', user: 'root', address: '10.77.0.1', port: 22 },
  { id: 2, name: 'lab-server', user: 'bench', address: '10.77.0.2', port: 2222 },
];
const hostName = (id: number) => HOSTS.find((host) => host.id === id)?.name ?? null;

const { target: _target, ...openProfile } = LoadProfile.parse({
  target: 'http://127.0.0.1:8080',
  request: { method: 'POST', path: '/json', headers: { 'X-Run': 'lab' }, body: '{"a":1}', timeoutMs: 5000 },
  load: { model: 'open', rate: 700, durationS: 20, connections: 50 },
  sweep: [700, 900],
  warmupS: 3,
  pauseS: 1,
});

/** A draft as the wizard holds it once every step is filled in (its profile as the form writes it). */
const WHOLE: WizardDraft = {
  ...DEFAULT_WIZARD,
  step: 'hosts',
  clientHostId: 1,
  serverHostId: 2,
  clientPreset: 'load-client',
  serverPreset: null,
  revertPresets: false,
  targets: [
    { templateId: 'node', variant: 'async', knobs: { workers: 2 } },
    { templateId: 'node', variant: 'sync' },
  ],
  port: '18000',
  studyId: 'wrk-connections',
  profile: draftOfProfile(openProfile),
  name: 'Node async vs sync',
  tags: 'lab, nightly',
  repeats: '5',
  thresholds: ['p99 < 20ms', 'errors < 0.1%'],
};

const STUDY: Study = {
  id: 'demo-study',
  name: 'Demo study',
  seed: 'what was done',
  templates: [{ templateId: 'tomcat', variant: 'sync', knobs: {} }],
  presets: { client: 'wrk-seed', server: 'high-concurrency-server' },
  profile: openProfile,
  published: null,
};

function saved(draft: WizardDraft): PlanFile {
  const parsed = planFileOfDraft(draft, hostName);
  assert.ok(parsed.ok, parsed.ok ? '' : JSON.stringify(parsed.problems));
  return parsed.plan;
}

function opened(text: string, studies: Study[] = [], current: WizardDraft = DEFAULT_WIZARD): { draft: WizardDraft; notes: string[] } {
  const parsed = parsePlanFile(text);
  assert.ok(parsed.ok, parsed.ok ? '' : JSON.stringify(parsed.problems));
  return draftOfPlanFile(parsed.plan, HOSTS, studies, current);
}

describe('Save plan file → Open plan file', () => {
  test('the engine: written only when not auto, and read back', () => {
    const text = formatPlanFile(saved({ ...WHOLE, engine: 'native' }), 'yaml');
    assert.match(text, /\nengine: native\n/);
    assert.equal(opened(text).draft.engine, 'native');
    assert.doesNotMatch(formatPlanFile(saved(WHOLE), 'yaml'), /engine:/);
    assert.equal(opened(formatPlanFile(saved(WHOLE), 'yaml'), [], { ...DEFAULT_WIZARD, engine: 'node' }).draft.engine, 'auto', 'a file without engine means auto');
  });

  test('a whole draft comes back unchanged through the YAML text, at the first step', () => {
    const text = formatPlanFile(saved({ ...WHOLE, step: 'review' }), 'yaml');
    assert.match(text, /hosts: \{client: lab-client, server: lab-server\}/);
    const back = opened(text, [], { ...DEFAULT_WIZARD, name: 'something else' });
    assert.deepEqual(back.notes, []);
    assert.deepEqual(back.draft, WHOLE);
  });

  test('the saved plan file says what the draft says', () => {
    const plan = saved(WHOLE);
    assert.deepEqual(plan.hosts, { client: 'lab-client', server: 'lab-server' });
    assert.deepEqual(plan.templates, [
      { template: 'node', variant: 'async', knobs: { workers: 2 }, port: 18000 },
      { template: 'node', variant: 'sync', knobs: {}, port: 18000 },
    ]);
    assert.deepEqual(plan.tags, ['lab', 'nightly']);
    assert.equal(plan.repeats, 5);
    assert.equal(plan.study, 'wrk-connections');
    assert.deepEqual(plan.profile, openProfile);
  });

  test('an unfinished draft is not a plan file yet: every missing piece by field', () => {
    const parsed = planFileOfDraft({ ...DEFAULT_WIZARD, port: 'abc', repeats: '0' }, hostName);
    assert.equal(parsed.ok, false);
    assert.deepEqual(
      parsed.ok ? [] : parsed.problems.map((problem) => `${problem.field}: ${problem.message}`),
      ['name: is required', 'templates: needs at least one template', 'repeats: must be at least 1'],
    );
    const badPort = planFileOfDraft({ ...WHOLE, port: 'abc' }, hostName);
    assert.deepEqual(badPort.ok ? [] : badPort.problems.map((problem) => problem.field), ['templates[0].port', 'templates[1].port']);
  });

  test('a study chosen with no templates yet saves as the study, which fills them in on Open', () => {
    const plan = saved({ ...WHOLE, targets: [], studyId: 'demo-study', clientPreset: null });
    assert.equal(plan.templates, undefined);
    const back = opened(formatPlanFile(plan, 'yaml'), [STUDY]);
    assert.deepEqual(back.draft.targets, [{ templateId: 'tomcat', variant: 'sync' }]);
    assert.equal(back.draft.clientPreset, null, 'the file said no preset: the study does not override it');
  });
});

describe('Open plan file: what the wizard makes of a file', () => {
  const base = 'version: 1\nname: Opened\n';

  test('hosts by stored name, or by user@address[:port] of a stored host; an unknown one is a note', () => {
    const back = opened(`${base}study: demo-study\nhosts: { client: root@10.77.0.1, server: bench@10.77.0.2:2222 }\n`, [STUDY]);
    assert.deepEqual([back.draft.clientHostId, back.draft.serverHostId], [1, 2]);
    const unknown = opened(`${base}study: demo-study\nhosts: { client: lab-client, server: bench@10.77.0.2 }\n`, [STUDY]);
    assert.deepEqual([unknown.draft.clientHostId, unknown.draft.serverHostId], [1, null]);
    assert.deepEqual(unknown.notes, ['hosts.server: no stored host is "bench@10.77.0.2"; add it on the Hosts page (or in step 1), then choose it']);
  });

  test('a study named by id gives templates, presets and profile; the file wins where it speaks', () => {
    const back = opened(`${base}study: demo-study\npresets: { client: load-client }\n`, [STUDY]);
    assert.deepEqual(back.notes, []);
    assert.equal(back.draft.studyId, 'demo-study');
    assert.deepEqual(back.draft.targets, [{ templateId: 'tomcat', variant: 'sync' }]);
    assert.equal(back.draft.clientPreset, 'load-client');
    assert.equal(back.draft.serverPreset, 'high-concurrency-server');
    assert.deepEqual(back.draft.profile, draftOfProfile(openProfile));
  });

  test('capacity steps: a study’s come with its profile, survive Save → Open, and reach the plan', () => {
    const capacity = { reference: { templateId: 'node', variant: 'sync', knobs: {} }, times: [1.5, 3], maxS: 45 };
    const back = opened(`${base}study: demo-study\n`, [{ ...STUDY, capacity }]);
    assert.deepEqual(back.draft.capacity, capacity);
    const again = opened(formatPlanFile(saved({ ...WHOLE, capacity }), 'yaml'));
    assert.deepEqual(again.draft.capacity, capacity);
    assert.deepEqual(specOf({ ...WHOLE, capacity }, { connected: () => true, presetPlan: () => null, proposedName: 'plan' } satisfies WizardContext).capacity, capacity);
    // A file with its own profile and no capacity block runs its own steps, whatever its study's were.
    assert.equal(opened(formatPlanFile(saved(WHOLE), 'yaml'), [{ ...STUDY, id: 'wrk-connections', capacity }]).draft.capacity, null);
  });

  test('an unknown study, and templates on different ports, are notes', () => {
    const current = { ...DEFAULT_WIZARD, profile: { ...DEFAULT_WIZARD.profile, path: '/kept' } };
    const back = opened(`${base}study: no-such-study\ntemplates:\n  - { template: node, variant: async, port: 8080 }\n  - { template: node, variant: sync, port: 9090 }\n`, [STUDY], current);
    assert.deepEqual(back.notes, [
      'study: there is no study "no-such-study" here; its templates, presets and profile could not be filled in',
      'templates: the wizard gives every template one port; it took 8080 for all of them',
      'profile: the file names no profile and no study gives one; the profile on step 4 is the one you had',
    ]);
    assert.equal(back.draft.port, '8080');
    assert.equal(back.draft.profile.path, '/kept');
  });
});

test('named requests go out as profile.requests and come back as the same rows', () => {
  const requests = [
    { name: 'json', method: 'GET' as const, path: '/json' },
    { name: 'db', method: 'POST' as const, path: '/docs', extra: { headers: {}, timeoutMs: 30000 } },
  ];
  const saved = planFileOfDraft({ ...WHOLE, requests }, hostName);
  assert.ok(saved.ok, saved.ok ? '' : JSON.stringify(saved.problems));
  const text = formatPlanFile(saved.plan, 'yaml');
  assert.match(text, /^ {2}requests:$/m);
  const opened = parsePlanFile(text);
  assert.ok(opened.ok);
  const { draft } = draftOfPlanFile(opened.plan, HOSTS, [], DEFAULT_WIZARD);
  assert.deepEqual(
    draft.requests.map((row) => [row.name, row.method, row.path, row.extra?.timeoutMs]),
    [
      ['json', 'GET', '/json', 5000],
      ['db', 'POST', '/docs', 30000],
    ],
  );
});
