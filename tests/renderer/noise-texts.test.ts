// Noise findings in words without a browser (renderer/src/features/runs/noise-texts.ts): a finding's
// badge names its host (one client among several by name), and a check says which hosts it read.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { HostFacts } from '../../app/hosts/host-facts.ts';
import { checkedHostsText, findingHostLabel } from '../../renderer/src/features/runs/noise-texts.ts';

test("a finding's badge: its role, with the host's name when the finding carries one", () => {
  assert.equal(findingHostLabel({ host: 'client', hostName: 'bl-client2' }), 'client bl-client2');
  assert.equal(findingHostLabel({ host: 'server', hostName: 'bl-server' }), 'server bl-server');
  // Stored before findings named their host.
  assert.equal(findingHostLabel({ host: 'client' }), 'client');
  assert.equal(findingHostLabel({ host: 'both' }), 'both hosts');
});

test('the hosts a check read: every client in order, then the server', () => {
  const host = (role: 'client' | 'server', hostName: string) => ({ role, hostName }) as HostFacts;
  assert.equal(checkedHostsText({ clients: [host('client', 'a'), host('client', 'b')], server: host('server', 's') }), 'client a, client b, server s');
  assert.equal(checkedHostsText({ clients: [host('client', 'a')], server: null }), 'client a');
});
