// The silence banner's words without a browser (renderer/src/features/runs/silence-texts.ts): with
// several clients each silent one is named by host, earliest first; with one, the run's client.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clockTime } from '../../app/common/clock-time.ts';
import type { LiveClient, LiveRun } from '../../app/runs/runs.ts';
import { silentClients, silentClientsText } from '../../renderer/src/features/runs/silence-texts.ts';

const client = (index: number, hostId: number, name: string) => ({ index, hostId, name }) as LiveClient;
const at = (second: number) => `2026-01-01T12:00:0${second}.000Z`;

test('several clients: each silent one by host, earliest first', () => {
  const run: Pick<LiveRun, 'clients' | 'clientHostId' | 'silentSince'> = {
    clientHostId: 11,
    clients: [client(0, 11, 'bl-client'), client(1, 12, 'bl-client2'), client(2, 13, 'bl-client3')],
    silentSince: { client: at(1), server: null, clients: [{ index: 2, since: at(3) }, { index: 1, since: at(1) }] },
  };
  const silent = silentClients(run, () => 'unused');
  assert.deepEqual(silent, [
    { hostId: 12, name: 'bl-client2', since: at(1) },
    { hostId: 13, name: 'bl-client3', since: at(3) },
  ]);
  assert.equal(silentClientsText(silent, true), `the clients bl-client2 (since ${clockTime(at(1))}) and bl-client3 (since ${clockTime(at(3))})`);
  assert.equal(silentClientsText(silent.slice(1), true), `the client bl-client3 (since ${clockTime(at(3))})`);
  assert.deepEqual(silentClients({ ...run, silentSince: { client: null, server: at(2), clients: [] } }, () => 'unused'), []);
});

test('one client: the run’s client, named through the hosts', () => {
  const run = { clientHostId: 11, clients: [client(0, 11, 'bl-client')], silentSince: { client: at(4), server: null } };
  const silent = silentClients(run, (hostId) => (hostId === 11 ? 'lab client' : '?'));
  assert.deepEqual(silent, [{ hostId: 11, name: 'lab client', since: at(4) }]);
  assert.equal(silentClientsText(silent, false), `the client (lab client) since ${clockTime(at(4))}`);
  assert.deepEqual(silentClients({ ...run, silentSince: { client: null, server: null } }, () => '?'), []);
});
