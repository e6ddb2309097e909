// Switching the load model on the Run page and in the wizard (renderer/src/features/runs/profile-draft.ts):
// a sweep whose values would count something else is cleared, and the user is told so.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_DRAFT, profileOf, switchLoad } from '../../renderer/src/features/runs/profile-draft.ts';

const open = { ...DEFAULT_DRAFT, model: 'open' as const, openKind: 'rate' as const, sweep: '500, 1000, 2000, 4000' };

test('open to closed: the rates are not taken for connections; the sweep is cleared and the note says so', () => {
  const switched = switchLoad(open, { model: 'closed' });
  assert.deepEqual(switched.change, { model: 'closed', sweep: '' });
  assert.equal(switched.note, 'The sweep of rates (req/s) (500, 1000, 2000, 4000) was cleared: its values would have become connections. Enter the connections per step.');
  assert.deepEqual(profileOf({ ...open, ...switched.change }).sweep ?? [], [], 'nothing is one click from 4,000 connections');
});

test('from rates to request counts the same; no sweep or the same unit: nothing cleared, nothing said', () => {
  assert.equal(switchLoad(open, { openKind: 'requests' }).change.sweep, '');
  assert.deepEqual(switchLoad({ ...open, sweep: '' }, { model: 'closed' }), { change: { model: 'closed' }, note: null });
  assert.deepEqual(switchLoad(open, { model: 'open' }), { change: { model: 'open' }, note: null });
});
