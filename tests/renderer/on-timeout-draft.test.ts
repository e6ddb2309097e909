// What a request still unanswered at its timeout does, in the Run page's and the wizard's form
// (renderer/src/features/runs/profile-draft.ts): close is the profile's default and left out of it,
// wait becomes `request.onTimeout` and back, and the open model, which cannot wait, never gets it.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LoadProfile } from '../../app/runs/load-profile.ts';
import { DEFAULT_DRAFT, draftOfProfile, profileOf } from '../../renderer/src/features/runs/profile-draft.ts';

const closed = { ...DEFAULT_DRAFT, target: 'http://10.0.0.3:8080' };

test('close is left out of the profile, wait is written and read back, the open model never waits', () => {
  assert.equal('onTimeout' in LoadProfile.parse(profileOf(closed)).request, false);
  const waiting = LoadProfile.parse(profileOf({ ...closed, onTimeout: 'wait' }));
  assert.equal(waiting.request.onTimeout, 'wait');
  assert.deepEqual(draftOfProfile(waiting), { ...closed, onTimeout: 'wait' });
  // Chosen under the closed model, then the open one: the form hides the choice and the profile drops it.
  const open = LoadProfile.parse(profileOf({ ...closed, onTimeout: 'wait', model: 'open' }));
  assert.equal(open.load.model, 'open');
  assert.equal('onTimeout' in open.request, false);
});
