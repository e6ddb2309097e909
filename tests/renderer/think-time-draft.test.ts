// The think time in the Run page's and the wizard's form (renderer/src/features/runs/profile-draft.ts):
// the closed model's fields with their units become the profile's thinkTime and back, and an error
// in it shows beside the field it names.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LoadProfile, profileFieldErrors } from '../../app/runs/load-profile.ts';
import { DEFAULT_DRAFT, draftOfProfile, fieldOfError, profileOf } from '../../renderer/src/features/runs/profile-draft.ts';

const closed = { ...DEFAULT_DRAFT, target: 'http://10.0.0.3:8080' };

test('none leaves the profile without a think time; fixed and random pauses become it, in ms', () => {
  assert.equal(LoadProfile.parse(profileOf(closed)).load.model === 'closed' && 'thinkTime' in LoadProfile.parse(profileOf(closed)).load, false);
  const fixed = LoadProfile.parse(profileOf({ ...closed, thinkKind: 'fixed', thinkMs: '250' }));
  assert.deepEqual(fixed.load.model === 'closed' && fixed.load.thinkTime, { kind: 'fixed', ms: 250 });
  const siege = LoadProfile.parse(profileOf({ ...closed, thinkKind: 'uniform', thinkMinMs: '0', thinkMaxMs: '1000', thinkRoundToMs: '1000' }));
  assert.deepEqual(siege.load.model === 'closed' && siege.load.thinkTime, { kind: 'uniform', minMs: 0, maxMs: 1000, roundToMs: 1000 });
  assert.deepEqual(draftOfProfile(siege), { ...DEFAULT_DRAFT, target: closed.target, thinkKind: 'uniform', thinkMinMs: '0', thinkMaxMs: '1000', thinkRoundToMs: '1000' });
  const open = LoadProfile.parse(profileOf({ ...closed, model: 'open', thinkKind: 'fixed' }));
  assert.equal('thinkTime' in open.load, false, 'the open model has none');
});

test('an error in the think time shows beside its field', () => {
  const draft = { ...closed, thinkKind: 'uniform' as const, thinkMinMs: '500', thinkMaxMs: '100' };
  const [path] = Object.keys(profileFieldErrors(profileOf(draft)));
  assert.equal(fieldOfError(path!, draft), 'thinkMaxMs');
  const piped = { ...closed, thinkKind: 'fixed' as const, pipelining: '4' };
  assert.equal(fieldOfError(Object.keys(profileFieldErrors(profileOf(piped)))[0]!, piped), 'pipelining');
});
