// The Run page's kept form (renderer/src/features/runs/run-draft.ts): restored field by field (a bad
// field falls back, never loses the rest), and the session name proposed from the profile.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_DRAFT } from '../../renderer/src/features/runs/profile-draft.ts';
import { DEFAULT_RUN_DRAFT, defaultRunName, restoreRunDraft } from '../../renderer/src/features/runs/run-draft.ts';

test('nothing saved: the defaults', () => {
  assert.deepEqual(restoreRunDraft(null), DEFAULT_RUN_DRAFT);
  assert.deepEqual(restoreRunDraft([1, 2]), DEFAULT_RUN_DRAFT);
});

test('a saved form comes back; a field of the wrong shape falls back alone', () => {
  const saved = { profile: { ...DEFAULT_DRAFT, target: 'http://10.0.0.2:3000', connections: 64 }, serverHostId: 4, engine: 'node', name: 'Mine' };
  const restored = restoreRunDraft(saved);
  assert.equal(restored.profile.target, 'http://10.0.0.2:3000');
  assert.equal(restored.profile.connections, DEFAULT_DRAFT.connections, 'a number where text belongs falls back');
  assert.equal(restored.serverHostId, 4);
  assert.equal(restored.engine, 'node');
  assert.equal(restored.name, 'Mine');
  const broken = restoreRunDraft({ ...saved, serverHostId: -1, engine: 'turbo', name: 7 });
  assert.deepEqual([broken.serverHostId, broken.engine, broken.name], [null, DEFAULT_RUN_DRAFT.engine, '']);
  assert.equal(broken.profile.target, 'http://10.0.0.2:3000');
});

test('the proposed name is the target, the path and the steps; none while the profile is invalid', () => {
  assert.equal(defaultRunName({ ...DEFAULT_DRAFT, target: 'http://10.0.0.2:3000/' }), 'http://10.0.0.2:3000/hello — c=10, 10 s');
  assert.equal(defaultRunName({ ...DEFAULT_DRAFT, target: 'http://10.0.0.2:3000', sweep: '10, 100' }), 'http://10.0.0.2:3000/hello — c=10, 10 s / c=100, 10 s');
  assert.equal(defaultRunName({ ...DEFAULT_DRAFT, target: '' }), null);
});
