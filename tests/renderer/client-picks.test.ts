// The load clients picked on the Run page and in the wizard (renderer/src/features/runs/client-picks.ts):
// the checks field by field, what runs.start is sent for one client and for several, and picks kept
// across navigation read back warily.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clientPickErrors, NO_CLIENT, restoreClientPicks, runClientsOf, weightOf } from '../../renderer/src/features/runs/client-picks.ts';

test('one client is sent as its host alone, with no weight even if one was typed', () => {
  assert.deepEqual(runClientsOf([{ hostId: 4, weight: '' }]), { clientHostId: 4 });
  assert.deepEqual(runClientsOf([{ hostId: 4, weight: 'x' }]), { clientHostId: 4 });
  assert.deepEqual(clientPickErrors([{ hostId: 4, weight: 'x' }]), {});
});

test('several clients are sent as a list: a typed weight goes with its host, an empty one is left to the core count', () => {
  assert.deepEqual(runClientsOf([{ hostId: 4, weight: '' }, { hostId: 7, weight: '2.5' }]), { clients: [{ hostId: 4 }, { hostId: 7, weight: 2.5 }] });
});

test('every problem by its field, and nothing is sent while one remains', () => {
  const picks = [NO_CLIENT, { hostId: 3, weight: '0' }, { hostId: 3, weight: '' }, { hostId: null, weight: '1e4' }];
  assert.deepEqual(clientPickErrors(picks), {
    clientHostId: 'choose the host that runs the load',
    'client-weight-1': 'must be a number above 0 and at most 1000, or empty for the core count',
    'client-2': 'is already a client above: each host once',
    'client-3': 'choose a host, or remove this client',
    'client-weight-3': 'must be a number above 0 and at most 1000, or empty for the core count',
  });
  assert.equal(runClientsOf(picks), null);
  assert.equal(runClientsOf([]), null);
  assert.deepEqual([weightOf({ hostId: 1, weight: ' 3 ' }), weightOf({ hostId: 1, weight: '' }), weightOf({ hostId: 1, weight: '-1' })], [3, undefined, null]);
});

test('remembered picks come back in shape: a bad entry is an empty pick, nothing at all one empty client', () => {
  assert.deepEqual(restoreClientPicks([{ hostId: 2, weight: '3' }, { hostId: 'x', weight: 5 }, null]), [{ hostId: 2, weight: '3' }, NO_CLIENT, NO_CLIENT]);
  assert.deepEqual(restoreClientPicks('junk'), [NO_CLIENT]);
  assert.deepEqual(restoreClientPicks([]), [NO_CLIENT]);
});
