// A session's clients read back from its config: several as recorded, one (or an older session's)
// from clientHost and engine, anything malformed read as that one client; a stored step's degraded
// mark read back, and none when absent or malformed.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { liveClientsOfConfig, recordedClientsOf, storedDegradedOf, type RecordedClient } from './run-clients.ts';

const nodeEngine = { choice: 'auto' as const, kind: 'node' as const, notice: 'the native engine cannot run here' };

const recorded: RecordedClient[] = [
  { index: 0, hostId: 3, hostName: 'bl-client', weight: 2, cores: 2, engine: nodeEngine, clock: { offsetMs: 0.4, rttMs: 0.3, uncertaintyMs: 0.152, probes: 16 } },
  { index: 1, hostId: 4, hostName: 'bl-client2', weight: 1, cores: null, engine: nodeEngine, clock: null },
];

test('several recorded clients are read back as done live clients, with their weight, cores, engine and clock', () => {
  const clients = liveClientsOfConfig({ clients: recorded, clientHost: 'bl-client' }, 3);
  assert.deepEqual(
    clients.map((client) => [client.index, client.hostId, client.name, client.weight, client.cores, client.status, client.clock?.offsetMs ?? null]),
    [
      [0, 3, 'bl-client', 2, 2, 'done', 0.4],
      [1, 4, 'bl-client2', 1, null, 'done', null],
    ],
  );
  assert.deepEqual(recordedClientsOf({ clients: recorded }), recorded);
});

test('a session that recorded no clients has its one client, named by clientHost, with its engine', () => {
  for (const config of [{ clientHost: 'lab-client', engine: nodeEngine }, { clientHost: 'lab-client', engine: nodeEngine, clients: [{ hostId: 'not a number' }] }, { clientHost: 'lab-client', engine: nodeEngine, clients: [] }]) {
    assert.equal(recordedClientsOf(config), null);
    const [client, ...others] = liveClientsOfConfig(config, 7);
    assert.deepEqual(others, []);
    assert.deepEqual([client!.index, client!.hostId, client!.name, client!.engine, client!.clock], [0, 7, 'lab-client', nodeEngine, null]);
  }
  assert.equal(liveClientsOfConfig({}, null)[0]!.engine, null, 'an older session without an engine recorded');
});

test("a stored step's degraded mark is read back; none when absent or malformed", () => {
  const degraded = { clientIndex: 1, hostName: 'bl-client2', atS: 12.4, message: 'lost the agent on bl-client2', lostSeconds: 18 };
  assert.deepEqual(storedDegradedOf({ label: 'c=4, 30 s', degraded }), degraded);
  assert.equal(storedDegradedOf({ label: 'c=4, 30 s' }), null);
  assert.equal(storedDegradedOf({ degraded: { clientIndex: 1 } }), null);
});
