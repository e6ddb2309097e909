// The wizard with several load clients (renderer/src/features/plans/wizard-draft.ts and
// plan-file-draft.ts): the hosts step's checks for the added clients, the plan handed to the back
// end (clients with the weights typed), a saved draft restored warily, a plan file's hosts.clients
// saved and opened again, and a session of several clients setting the wizard up again.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parsePlanFile } from '../../app/plans/plan-file.ts';
import { formatPlanFile } from '../../app/plans/plan-file-format.ts';
import type { Session } from '../../app/sessions/sessions.ts';
import { draftOfPlanFile, planFileOfDraft } from '../../renderer/src/features/plans/plan-file-draft.ts';
import { checkedSpec, DEFAULT_WIZARD, restoreWizard, stepErrors, wizardFromSession, type WizardContext, type WizardDraft } from '../../renderer/src/features/plans/wizard-draft.ts';

const HOSTS = [
  { id: 1, name: 'lab-client', user: 'root', address: '10.77.0.1', port: 22 },
  { id: 2, name: 'lab-server', user: 'root', address: '10.77.0.2', port: 22 },
  { id: 3, name: 'lab-client2', user: 'root', address: '10.77.0.3', port: 22 },
];
const hostName = (id: number) => HOSTS.find((host) => host.id === id)?.name ?? null;
const context = (connected: readonly number[] = [1, 2, 3]): WizardContext => ({ connected: (id) => connected.includes(id), presetPlan: () => null, proposedName: 'Plan' });

const TWO_CLIENTS: WizardDraft = {
  ...DEFAULT_WIZARD,
  clientHostId: 1,
  clientWeight: '',
  moreClients: [{ hostId: 3, weight: '2' }],
  serverHostId: 2,
  targets: [{ templateId: 'node', variant: 'async' }],
  name: 'Two clients',
};

test('hosts step: each added client chosen once, connected, with a weight that is one', () => {
  assert.deepEqual(stepErrors('hosts', TWO_CLIENTS, context()), {});
  assert.deepEqual(stepErrors('hosts', { ...TWO_CLIENTS, moreClients: [{ hostId: 3, weight: '' }, { hostId: 1, weight: 'lots' }, { hostId: null, weight: '' }] }, context([1, 2])), {
    'client-1': 'connect this host first (Test connection)',
    'client-2': 'is already a client above: each host once',
    'client-weight-2': 'must be a number above 0 and at most 1000, or empty for the core count',
    'client-3': 'choose a host, or remove this client',
  });
});

test('the plan gets every client with the weights typed; one client, no list', () => {
  const two = checkedSpec(TWO_CLIENTS, context());
  assert.ok('spec' in two, JSON.stringify(two));
  assert.deepEqual([two.spec.clientHostId, two.spec.clients], [1, [{ hostId: 1 }, { hostId: 3, weight: 2 }]]);
  const one = checkedSpec({ ...TWO_CLIENTS, moreClients: [] }, context());
  assert.ok('spec' in one);
  assert.equal(one.spec.clients, undefined);
});

test('a saved draft keeps its clients; a bad saved list falls back alone', () => {
  assert.deepEqual(restoreWizard(JSON.parse(JSON.stringify(TWO_CLIENTS))).moreClients, [{ hostId: 3, weight: '2' }]);
  const bad = restoreWizard({ ...TWO_CLIENTS, moreClients: 'three', clientWeight: 5 });
  assert.deepEqual([bad.moreClients, bad.clientWeight, bad.clientHostId], [[], '', 1]);
});

test('Save plan file writes hosts.clients (a weight only where typed); Open reads them back', () => {
  const saved = planFileOfDraft(TWO_CLIENTS, hostName);
  assert.ok(saved.ok, saved.ok ? '' : JSON.stringify(saved.problems));
  assert.deepEqual(saved.plan.hosts, { clients: [{ host: 'lab-client' }, { host: 'lab-client2', weight: 2 }], server: 'lab-server' });
  const reread = parsePlanFile(formatPlanFile(saved.plan, 'yaml'));
  assert.ok(reread.ok);
  const { draft, notes } = draftOfPlanFile(reread.plan, HOSTS, [], DEFAULT_WIZARD);
  assert.deepEqual(notes, []);
  assert.deepEqual([draft.clientHostId, draft.clientWeight, draft.moreClients], [1, '', [{ hostId: 3, weight: '2' }]]);

  const unknown = parsePlanFile('version: 1\nname: P\ntemplates: [node:async]\nprofile: { request: { path: /hello }, load: { model: closed, connections: 2, durationS: 1 } }\nhosts: { clients: [lab-client, nowhere] }\n');
  assert.ok(unknown.ok, unknown.ok ? '' : JSON.stringify(unknown.problems));
  const opened = draftOfPlanFile(unknown.plan, HOSTS, [], DEFAULT_WIZARD);
  assert.deepEqual(opened.draft.moreClients, [{ hostId: null, weight: '' }]);
  assert.match(opened.notes.join('\n'), /hosts\.clients\[1\]: no stored host is "nowhere"/);
});

test('a session of several clients sets the wizard up with them and the weights they ran with', () => {
  const clock = null;
  const engine = { kind: 'native', choice: 'auto', notice: null };
  const session = {
    name: 'From two',
    clientHostId: 1,
    serverHostId: 2,
    tags: [],
    config: {
      clients: [
        { index: 0, hostId: 1, hostName: 'lab-client', weight: 4, cores: 4, engine, clock },
        { index: 1, hostId: 3, hostName: 'lab-client2', weight: 2, cores: 8, engine, clock },
      ],
    },
  } as unknown as Session;
  const draft = wizardFromSession(DEFAULT_WIZARD, session, []);
  assert.deepEqual([draft.clientHostId, draft.clientWeight, draft.moreClients], [1, '4', [{ hostId: 3, weight: '2' }]]);
  const single = wizardFromSession(TWO_CLIENTS, { ...session, config: {} } as Session, []);
  assert.deepEqual([single.clientWeight, single.moreClients], ['', []]);
});
