// The Templates page's default deploy target (renderer/src/features/templates/deploy-target.ts): the
// server host when connected, never a load client while another host is connected.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultDeployHost } from '../../renderer/src/features/templates/deploy-target.ts';

const client = { id: 1, name: 'lab-client' };
const server = { id: 2, name: 'lab-server' };

test('the server host when it is connected, wherever it is listed', () => {
  assert.equal(defaultDeployHost([client, server], { serverHostId: 2, clientHostIds: [1] }), server);
});

test('the server host unknown or not connected: not the load client, which is listed first', () => {
  assert.equal(defaultDeployHost([client, server], { serverHostId: null, clientHostIds: [1] }), server);
  assert.equal(defaultDeployHost([client, server], { serverHostId: 9, clientHostIds: [1] }), server);
});

test('only load clients connected: the first of them; none connected: none', () => {
  assert.equal(defaultDeployHost([client], { serverHostId: 2, clientHostIds: [1] }), client);
  assert.equal(defaultDeployHost([], { serverHostId: 2, clientHostIds: [] }), null);
});
