// Host connections against the lab: a dead link is noticed within 30 s and the host reconnects
// by itself once the link is back; a refused key is never retried behind the user's back.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { HostConnection } from '../../../app/hosts/connections.ts';
import { labSetLink } from '../../../tests/lab/lab.ts';
import { labSkipReason, labTargets } from '../../../tests/support/lab-hosts.ts';
import { until } from '../../../tests/support/until.ts';
import { EventBus } from '../event-bus.ts';
import { Logger } from '../logger.ts';
import { openDatabase } from '../store/database.ts';
import { EventsRepository } from '../store/events-repository.ts';
import { HostsRepository } from './hosts-repository.ts';
import { AWAITING_TRUST, HostConnections } from './host-connections.ts';

const skip = labSkipReason();

function fixture() {
  const dir = mkdtempSync(join(tmpdir(), 'benchlab-conn-'));
  const { db } = openDatabase(dir);
  const bus = new EventBus();
  const hosts = new HostsRepository(db);
  const connections = new HostConnections({ hosts, bus, log: new Logger(new EventsRepository(db), bus) });
  const states: HostConnection[] = [];
  bus.subscribe('hosts.connection', (state) => states.push(state));
  const cleanup = () => {
    connections.closeAll();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  };
  return { hosts, connections, states, cleanup };
}

/** The first recorded connection event of `hostId` in `state` (the events are recorded as they come). */
function waitForState(states: HostConnection[], hostId: number, state: HostConnection['state'], timeoutMs: number): Promise<HostConnection> {
  const seen = () => states.find((entry) => entry.hostId === hostId && entry.state === state);
  return until(seen, `the connection to become "${state}"`, timeoutMs);
}

describe('host connections on the lab', { skip: skip ?? false }, () => {
  test('first use: an unknown key waits for trust, pinning it lets the host connect', async () => {
    const { hosts, connections, cleanup } = fixture();
    after(cleanup);
    const targets = await labTargets();
    const host = hosts.add({ name: 'server', address: targets.server.address, port: 22, user: 'root', auth: 'key', keyPath: targets.keyPath });
    await assert.rejects(connections.connect(host.id), { code: 'host_key_unknown' });
    assert.equal(connections.state(host.id).state, 'disconnected', 'waiting for the user to trust the key is no failure');
    assert.equal(connections.state(host.id).message, AWAITING_TRUST);
    assert.equal(connections.presentedKey(host.id), targets.server.pinnedFingerprint);
    hosts.pinKey(host.id, connections.presentedKey(host.id)!);
    const connection = await connections.connect(host.id);
    assert.equal(connection.state, 'connected');
    assert.equal((await connections.transportFor(host.id).exec('hostname')).stdout.trim(), 'bl-server');
  });

  test('a dead link is noticed within 30 s and the host reconnects when it is back', { timeout: 120_000 }, async () => {
    const { hosts, connections, states, cleanup } = fixture();
    after(cleanup);
    const targets = await labTargets('disruptive');
    const host = hosts.add({ name: 'server', address: targets.server.address, port: 22, user: 'root', auth: 'key', keyPath: targets.keyPath });
    hosts.pinKey(host.id, targets.server.pinnedFingerprint!);
    await connections.connect(host.id);

    const cut = Date.now();
    await labSetLink('server', 'down', { instance: 'disruptive' });
    try {
      const lost = await waitForState(states, host.id, 'reconnecting', 30_000);
      assert.match(lost.message ?? '', /connection lost/);
      console.log(`dead link noticed after ${((Date.now() - cut) / 1000).toFixed(1)} s`);
      assert.throws(() => connections.transportFor(host.id), { code: 'disconnected' });
    } finally {
      await labSetLink('server', 'up', { instance: 'disruptive' });
    }
    states.length = 0;
    await waitForState(states, host.id, 'connected', 45_000);
    assert.equal((await connections.transportFor(host.id).exec('hostname')).stdout.trim(), 'bl-server');
  });
});
