// The wizard's pure logic (renderer/src/features/plans/wizard-draft.ts and the profile form's
// draft): restoring a saved draft field by field, the checks before each Next, the plan it hands
// the back end, setting it up again from a session, and every shipped study surviving the trip
// through the form unchanged.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { STUDY_TARGET_PLACEHOLDER } from '../../app/plans/plan-file.ts';
import { parseStudy, type Study } from '../../app/plans/studies.ts';
import { LoadProfile } from '../../app/runs/load-profile.ts';
import type { Session } from '../../app/sessions/sessions.ts';
import { draftOfProfile, profileOf } from '../../renderer/src/features/runs/profile-draft.ts';
import { draftsOfRequests, namedRequestsOf, newRequestDraft } from '../../renderer/src/features/plans/request-drafts.ts';
import { PlanRequests } from '../../app/plans/plan-requests.ts';
import { PlanSpec } from '../../app/plans/plan.ts';
import { checkedSpec, DEFAULT_WIZARD, withStudy, proposedPlanName, restoreWizard, specOf, stepErrors, studyChoices, wizardFromSession, type WizardContext, type WizardDraft } from '../../renderer/src/features/plans/wizard-draft.ts';
import { REPO_ROOT } from '../support/web-app.ts';

const everythingUp: WizardContext = { connected: () => true, presetPlan: () => ({ planId: '0123456789abcdef' }), proposedName: '' };
const ready: WizardDraft = {
  ...DEFAULT_WIZARD,
  clientHostId: 1,
  serverHostId: 2,
  serverPreset: 'load-client',
  targets: [{ templateId: 'node', variant: 'async' }],
  profile: { ...DEFAULT_WIZARD.profile, connections: '4', durationS: '3' },
  name: 'Plan',
};

function studies(): Study[] {
  const dir = join(REPO_ROOT, 'resources', 'studies');
  return readdirSync(dir).filter((file) => file.endsWith('.yaml')).map((file) => {
    const study = parseStudy(readFileSync(join(dir, file), 'utf8'));
    assert.ok(typeof study !== 'string', `${file}: ${String(study)}`);
    return study;
  });
}

describe('restoring a saved draft', () => {
  test('nothing saved, or not an object: the defaults', () => {
    assert.deepEqual(restoreWizard(null), DEFAULT_WIZARD);
    assert.deepEqual(restoreWizard('text'), DEFAULT_WIZARD);
  });

  test('good fields are kept and a bad one falls back alone', () => {
    const restored = restoreWizard({ ...ready, step: 'teleport', clientHostId: -3, targets: [{ templateId: 'node' }], profile: { connections: 12, durationS: '9' } });
    assert.equal(restored.step, 'hosts');
    assert.equal(restored.clientHostId, null);
    assert.equal(restored.serverHostId, 2);
    assert.equal(restored.serverPreset, 'load-client');
    assert.deepEqual(restored.targets, []);
    assert.equal(restored.profile.connections, DEFAULT_WIZARD.profile.connections, 'a number where text belongs is dropped');
    assert.equal(restored.profile.durationS, '9');
    assert.equal(restored.name, 'Plan');
  });

  test('a whole draft round-trips through JSON', () => {
    assert.deepEqual(restoreWizard(JSON.parse(JSON.stringify({ ...ready, step: 'review', port: '18000' }))), { ...ready, step: 'review', port: '18000' });
  });
});

describe('checks before Next', () => {
  test('hosts: both chosen and connected', () => {
    assert.deepEqual(Object.keys(stepErrors('hosts', DEFAULT_WIZARD, everythingUp)), ['clientHostId', 'serverHostId']);
    const serverDown: WizardContext = { ...everythingUp, connected: (id) => id !== 2 };
    assert.deepEqual(stepErrors('hosts', ready, serverDown), { serverHostId: 'connect this host first (Test connection)' });
    assert.deepEqual(stepErrors('hosts', ready, everythingUp), {});
  });

  test('presets: a chosen preset needs its plan; one host cannot take two presets', () => {
    assert.deepEqual(stepErrors('presets', ready, { ...everythingUp, presetPlan: () => null }), { serverPreset: 'waiting for the plan of this preset on the host' });
    assert.deepEqual(stepErrors('presets', ready, { ...everythingUp, presetPlan: () => 'sudo refused' }), { serverPreset: 'sudo refused' });
    assert.deepEqual(stepErrors('presets', { ...ready, clientPreset: 'wrk-seed', serverHostId: 1 }, everythingUp), {
      serverPreset: 'the client and the server are one host: choose one preset for it',
    });
    assert.deepEqual(stepErrors('presets', { ...ready, serverPreset: null }, { ...everythingUp, presetPlan: () => null }), {}, 'no preset, nothing to wait for');
  });

  test('presets with several clients: the client preset needs its plan on each client, and no client may be the server with two presets', () => {
    const several: WizardDraft = { ...ready, clientPreset: 'load-client', serverPreset: null, moreClients: [{ hostId: 3, weight: '' }] };
    const asked: string[] = [];
    const secondWaits: WizardContext = {
      ...everythingUp,
      presetPlan: (role, hostId) => {
        asked.push(`${role}@${hostId}`);
        return hostId === 3 ? 'sudo refused' : { planId: '0123456789abcdef' };
      },
    };
    assert.deepEqual(stepErrors('presets', several, secondWaits), { clientPreset: 'client 2: sudo refused' });
    assert.deepEqual(asked, ['client@1', 'client@3']);
    assert.deepEqual(stepErrors('presets', { ...several, serverPreset: 'wrk-seed', serverHostId: 3 }, everythingUp), {
      serverPreset: 'a client and the server are one host: choose one preset for it',
    });
  });

  test('a study’s presets: the server’s dropped when the server host is one of the clients (one host, one preset)', () => {
    const study = { templates: [], presets: { client: 'load-client', server: 'wrk-seed' } };
    const known = () => true;
    assert.deepEqual(studyChoices(study, { ...ready, moreClients: [{ hostId: 3, weight: '' }] }, known), { targets: [], clientPreset: 'load-client', serverPreset: 'wrk-seed' });
    assert.deepEqual(studyChoices(study, { ...ready, moreClients: [{ hostId: 2, weight: '' }] }, known), { targets: [], clientPreset: 'load-client', serverPreset: null });
  });

  test('the plan of several clients carries the client preset’s plan on each of them', () => {
    const planIds: Record<number, string> = { 1: '00000000000000a1', 2: '00000000000000b2', 3: '00000000000000c3' };
    const perHost: WizardContext = { ...everythingUp, presetPlan: (_role, hostId) => ({ planId: planIds[hostId]! }) };
    const draft: WizardDraft = { ...ready, clientPreset: 'load-client', moreClients: [{ hostId: 3, weight: '2' }] };
    const checked = checkedSpec(draft, perHost);
    assert.ok('spec' in checked, JSON.stringify(checked));
    assert.deepEqual(checked.spec.presets, {
      client: { presetId: 'load-client', planId: '00000000000000a1', morePlanIds: ['00000000000000c3'] },
      server: { presetId: 'load-client', planId: '00000000000000b2' },
    });
    assert.equal(specOf({ ...draft, moreClients: [] }, perHost).presets.client?.morePlanIds, undefined, 'one client: its plan alone');
  });

  test('templates: at least one, and a port only if it is one', () => {
    assert.deepEqual(stepErrors('templates', { ...ready, targets: [] }, everythingUp), { targets: 'choose at least one template and variant' });
    assert.deepEqual(Object.keys(stepErrors('templates', { ...ready, port: '70000' }, everythingUp)), ['port']);
    assert.deepEqual(stepErrors('templates', { ...ready, port: ' 18000 ' }, everythingUp), {});
  });

  test('load: the profile form field that is wrong, without any target', () => {
    assert.deepEqual(stepErrors('load', ready, everythingUp), {});
    assert.deepEqual(stepErrors('load', { ...ready, profile: { ...ready.profile, connections: '0' } }, everythingUp), { connections: 'must be at least 1' });
    assert.deepEqual(Object.keys(stepErrors('load', { ...ready, profile: { ...ready.profile, path: 'hello' } }, everythingUp)), ['path']);
  });

  test('review: a name, typed or proposed', () => {
    assert.deepEqual(stepErrors('review', { ...ready, name: '  ' }, everythingUp), { name: 'is required' });
    assert.deepEqual(stepErrors('review', ready, everythingUp), {});
    const proposing = { ...everythingUp, proposedName: 'Node · async, GET /hello' };
    assert.deepEqual(stepErrors('review', { ...ready, name: '  ' }, proposing), {});
    assert.equal(specOf({ ...ready, name: '' }, proposing).name, 'Node · async, GET /hello');
    assert.equal(specOf({ ...ready, name: ' Mine ' }, proposing).name, 'Mine');
  });

  test('the proposed name: the study, or the templates compared, and the request', () => {
    const label = (templateId: string, variant: string) => `${templateId} · ${variant}`;
    const two = { ...ready, targets: [...ready.targets, { templateId: 'node', variant: 'sync' }] };
    assert.equal(proposedPlanName(two, label, null), 'node · async vs node · sync, GET /hello');
    assert.equal(proposedPlanName(two, label, 'Async vs sync I/O'), 'Async vs sync I/O, GET /hello');
    assert.equal(proposedPlanName({ ...ready, targets: [] }, label, null), '');
  });
});

describe('the plan handed to the back end', () => {
  test('presets carry the planId that was shown; the port goes to every template; tags are parsed', () => {
    const spec = specOf({ ...ready, port: '18000', tags: 'lab, e2e, lab', targets: [...ready.targets, { templateId: 'node', variant: 'sync' }] }, everythingUp);
    assert.deepEqual(spec.presets, { client: null, server: { presetId: 'load-client', planId: '0123456789abcdef' } });
    assert.deepEqual(spec.targets, [
      { templateId: 'node', variant: 'async', port: 18000 },
      { templateId: 'node', variant: 'sync', port: 18000 },
    ]);
    assert.deepEqual(spec.tags, ['lab', 'e2e']);
    assert.equal(spec.profile.target, STUDY_TARGET_PLACEHOLDER);
    const checked = checkedSpec(ready, everythingUp);
    assert.ok('spec' in checked);
    assert.equal(checked.spec.revertPresets, true);
  });

  test("knobs from a plan file or study go to the plan; the thresholds it carried are kept in the draft", () => {
    const withKnobs = { ...ready, targets: [{ templateId: 'node', variant: 'async', knobs: { workers: 2 } }], thresholds: ['p99 < 20ms'] };
    assert.deepEqual(specOf(withKnobs, everythingUp).targets, [{ templateId: 'node', variant: 'async', knobs: { workers: 2 } }]);
    assert.deepEqual(restoreWizard(JSON.parse(JSON.stringify(withKnobs))), withKnobs);
    assert.deepEqual(restoreWizard({ ...withKnobs, thresholds: [1] }).thresholds, [], 'a list of anything but text is dropped');
    assert.deepEqual(restoreWizard({ ...withKnobs, targets: [{ templateId: 'node', variant: 'async', knobs: { workers: {} } }] }).targets, []);
  });

  test('repeats: 1 unless asked, checked on Review, handed over as a number', () => {
    assert.equal(DEFAULT_WIZARD.repeats, '1');
    assert.equal(restoreWizard({ ...ready, repeats: 5 }).repeats, '1', 'a number where text belongs is dropped');
    assert.equal(restoreWizard({ ...ready, repeats: '5' }).repeats, '5');
    for (const bad of ['0', '21', '2.5', 'x', '']) {
      assert.deepEqual(stepErrors('review', { ...ready, repeats: bad }, everythingUp), { repeats: 'must be a whole number from 1 to 20' }, bad);
    }
    assert.equal(specOf({ ...ready, repeats: ' 5 ' }, everythingUp).repeats, 5);
    const checked = checkedSpec({ ...ready, repeats: '5' }, everythingUp);
    assert.ok('spec' in checked && checked.spec.repeats === 5);
  });

  test('a plan the back end would refuse is said in words', () => {
    const checked = checkedSpec({ ...ready, targets: [] }, everythingUp);
    assert.deepEqual(checked, { error: 'targets: choose at least one template' });
  });
});

test('every study survives the profile form and the named requests unchanged', () => {
  for (const study of studies()) {
    const { requests, ...profile } = study.profile;
    const back = LoadProfile.parse(profileOf({ ...draftOfProfile(study.profile), target: STUDY_TARGET_PLACEHOLDER }));
    assert.deepEqual(back, { ...profile, target: STUDY_TARGET_PLACEHOLDER }, study.id);
    const rows = draftsOfRequests(requests);
    assert.deepEqual(rows.length > 0 ? PlanRequests.parse(namedRequestsOf(rows, back)) : undefined, requests, study.id);
  }
});

test('named requests: a study’s become rows, the plan runs them, and a bad row is said by its field', () => {
  const siege = studies().find((study) => study.id === 'siege-mixed')!;
  const draft: WizardDraft = { ...ready, ...withStudy(ready, siege, () => true) };
  assert.deepEqual(draft.requests.map((row) => row.name), ['db', 'json', 'concat', 'fib']);
  const spec = PlanSpec.parse(specOf(draft, everythingUp));
  assert.deepEqual(spec.requests?.map((request) => [request.name, request.path, request.timeoutMs]), [
    ['db', '/docs', 30_000],
    ['json', '/json', 30_000],
    ['concat', '/concat?n=10000', 30_000],
    ['fib', '/fib?n=30', 30_000],
  ]);
  // A row added in the wizard sends what the profile sends, with its timeout, under a free name.
  const added = [...draft.requests, newRequestDraft(draft.requests, draft.profile)];
  assert.equal(added.at(-1)!.name, 'request 5');
  const withAdded = PlanSpec.parse(specOf({ ...draft, requests: added }, everythingUp));
  assert.equal(withAdded.requests?.at(-1)?.timeoutMs, Number(draft.profile.timeoutMs));
  const bad = [...draft.requests.slice(0, 1), { name: 'DB', method: 'GET' as const, path: 'docs' }];
  assert.deepEqual(stepErrors('load', { ...draft, requests: bad }, everythingUp), {
    'request-1-name': 'names "DB" again: each request once',
    'request-1-path': 'must start with "/" (for example /hello)',
  });
  assert.deepEqual(restoreWizard(JSON.parse(JSON.stringify(draft))).requests, draft.requests);
  assert.deepEqual(stepErrors('load', { ...draft, requests: [] }, everythingUp), {});
});

test('a session sets the wizard up again: hosts, its templates once each, profile, name and tags', () => {
  const profile = LoadProfile.parse({ target: 'http://10.0.0.3:8080', request: { path: '/json' }, load: { model: 'open', rate: 700, durationS: 60, connections: 15 } });
  const session = { id: 7, name: 'Old run', tags: ['jvm', 'seed'], clientHostId: 3, serverHostId: 4, config: { profile } } as unknown as Session;
  const runs = [
    { templateId: 'tomcat', variant: 'sync' },
    { templateId: 'tomcat', variant: 'sync' },
    { templateId: 'external', variant: '' },
  ];
  const draft = wizardFromSession({ ...ready, step: 'run' }, session, runs);
  assert.equal(draft.step, 'hosts');
  assert.deepEqual([draft.clientHostId, draft.serverHostId], [3, 4]);
  assert.deepEqual(draft.targets, [{ templateId: 'tomcat', variant: 'sync' }]);
  assert.equal(draft.profile.path, '/json');
  assert.equal(draft.profile.rate, '700');
  assert.equal(draft.profile.target, '');
  assert.equal(draft.name, 'Old run');
  assert.equal(draft.tags, 'jvm, seed');
  const unparsable = wizardFromSession(ready, { ...session, config: {} } as Session, []);
  assert.deepEqual([unparsable.profile, unparsable.targets], [ready.profile, ready.targets], 'what the session lacks is left as it was');
});
