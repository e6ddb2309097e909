// The forms' drafts on a real SQLite file: none at first, an object round-trips with when it was
// saved, saving no draft clears it, anything but an object under a form's key reads as none, and
// each form keeps its own.

import assert from 'node:assert/strict';
import { beforeEach, test } from 'node:test';
import { testDatabasePerTest } from '../../../tests/support/test-database.ts';
import { DraftsRepository } from './drafts-repository.ts';
import { FormDrafts } from './form-drafts.ts';

const store = testDatabasePerTest('form-drafts');
let drafts: DraftsRepository;
let forms: FormDrafts;

beforeEach(() => {
  drafts = new DraftsRepository(store.db);
  forms = new FormDrafts(drafts);
});

test('no draft at first', () => {
  assert.deepEqual(forms.load('wizard'), { draft: null, savedAt: null });
});

test('a saved draft loads back with when it was saved; saving none clears it', () => {
  const draft = { step: 2, targets: [{ templateId: 'node' }] };
  const { savedAt } = forms.save('wizard', draft);
  assert.ok(savedAt);
  assert.deepEqual(forms.load('wizard'), { draft, savedAt });
  assert.deepEqual(forms.save('wizard', null), { savedAt: null });
  assert.deepEqual(forms.load('wizard'), { draft: null, savedAt: null });
  assert.equal(drafts.get('wizard'), null);
});

test('anything but an object under the wizard key reads as no draft', () => {
  for (const value of [[1, 2], 'text', 7, null]) {
    drafts.save('wizard', value);
    assert.deepEqual(forms.load('wizard'), { draft: null, savedAt: null }, JSON.stringify(value));
  }
});

test('the Run page keeps its own draft beside the wizard', () => {
  forms.save('wizard', { step: 'templates' });
  const { savedAt } = forms.save('run', { clientHostId: 3 });
  assert.deepEqual(forms.load('run'), { draft: { clientHostId: 3 }, savedAt });
  assert.deepEqual(forms.load('wizard').draft, { step: 'templates' });
  forms.save('run', null);
  assert.deepEqual(forms.load('run'), { draft: null, savedAt: null });
  assert.deepEqual(forms.load('wizard').draft, { step: 'templates' });
});
