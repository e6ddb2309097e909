// The wizard's draft on a real SQLite file: none at first, an object round-trips with when it was
// saved, saving no draft clears it, and anything but an object under the wizard's key reads as none.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { openDatabase, type Db } from '../store/database.ts';
import { DraftsRepository } from './drafts-repository.ts';
import { WizardDraft } from './wizard-draft.ts';

let dir: string;
let db: Db;
let drafts: DraftsRepository;
let wizard: WizardDraft;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'benchlab-wizard-draft-'));
  db = openDatabase(dir).db;
  drafts = new DraftsRepository(db);
  wizard = new WizardDraft(drafts);
});

afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

test('no draft at first', () => {
  assert.deepEqual(wizard.load(), { draft: null, savedAt: null });
});

test('a saved draft loads back with when it was saved; saving none clears it', () => {
  const draft = { step: 2, targets: [{ templateId: 'node' }] };
  const { savedAt } = wizard.save(draft);
  assert.ok(savedAt);
  assert.deepEqual(wizard.load(), { draft, savedAt });
  assert.deepEqual(wizard.save(null), { savedAt: null });
  assert.deepEqual(wizard.load(), { draft: null, savedAt: null });
  assert.equal(drafts.get('wizard'), null);
});

test('anything but an object under the wizard key reads as no draft', () => {
  for (const value of [[1, 2], 'text', 7, null]) {
    drafts.save('wizard', value);
    assert.deepEqual(wizard.load(), { draft: null, savedAt: null }, JSON.stringify(value));
  }
});

test('the Run page keeps its own draft beside the wizard', () => {
  wizard.save({ step: 'templates' });
  const { savedAt } = wizard.save({ clientHostId: 3 }, 'run');
  assert.deepEqual(wizard.load('run'), { draft: { clientHostId: 3 }, savedAt });
  assert.deepEqual(wizard.load().draft, { step: 'templates' });
  wizard.save(null, 'run');
  assert.deepEqual(wizard.load('run'), { draft: null, savedAt: null });
  assert.deepEqual(wizard.load().draft, { step: 'templates' });
});
