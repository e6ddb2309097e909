// The HostService's rules on a real SQLite file: "This machine" is added once, host-key pinning
// refuses what it must (a second first-use pin, a replace with nothing pinned, a key the host did
// not present), the system-info cache answers the stored reading unless a refresh is asked for
// and the host is connected, and each change to the entries is logged. The accepted pin runs
// against the lab's real sshd.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import type { LogLine } from '../../../app/contract.ts';
import { apiError } from '../../../tests/support/api-error.ts';
import type { SystemInfo } from '../../../app/hosts/system-info.ts';
import { labSkipReason, labTargets } from '../../../tests/support/lab-hosts.ts';
import { EventBus } from '../event-bus.ts';
import { Logger } from '../logger.ts';
import { SnapshotsRepository } from './snapshots-repository.ts';
import { openDatabase, type Db } from '../store/database.ts';
import { EventsRepository } from '../store/events-repository.ts';
import { HostConnections } from './host-connections.ts';
import { LOCAL_HOST_NAME } from '../../../app/hosts/hosts.ts';
import { HostService } from './host-service.ts';
import { HostsRepository } from './hosts-repository.ts';
import { collectSystemInfo } from './system-info.ts';
import { LocalTransport } from './local-transport.ts';

/** A well-formed fingerprint no host here presents. */
const STRANGER_KEY = `SHA256:${'A'.repeat(43)}`;
const OTHER_KEY = `SHA256:${'B'.repeat(43)}`;

let dir: string;
let db: Db;
let hosts: HostsRepository;
let connections: HostConnections;
let snapshots: SnapshotsRepository;
let service: HostService;
let logged: string[];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'benchlab-host-service-'));
  db = openDatabase(dir).db;
  const bus = new EventBus();
  const log = new Logger(new EventsRepository(db), bus);
  hosts = new HostsRepository(db);
  connections = new HostConnections({ hosts, bus, log });
  snapshots = new SnapshotsRepository(db);
  service = new HostService({ hosts, connections, snapshots, log });
  logged = [];
  bus.subscribe('log', (line: LogLine) => {
    if (line.source === 'hosts') logged.push(line.message);
  });
});

afterEach(() => {
  connections.closeAll();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const sshHost = { name: 'server', address: '10.0.0.3', port: 22, user: 'bench', auth: 'agent' } as const;

describe('"This machine"', () => {
  test('is added once: asking again answers the same entry', () => {
    const first = service.addLocal();
    assert.equal(first.name, LOCAL_HOST_NAME);
    assert.equal(first.kind, 'local');
    const again = service.addLocal();
    assert.deepEqual(again, first);
    assert.deepEqual(
      service.list().filter((host) => host.kind === 'local').map((host) => host.id),
      [first.id],
    );
    assert.deepEqual(logged, ['added "This machine"']);
  });

  test('cannot be the target of a reachability test', async () => {
    const local = service.addLocal();
    const server = service.add(sshHost);
    await assert.rejects(service.reachability(server.id, local.id), apiError('invalid_args', /^to: "This machine" has no address/));
  });
});

describe('host-key pinning', () => {
  test('first use is refused when a key is pinned already: replacing it is its own action', () => {
    const host = service.add(sshHost);
    hosts.pinKey(host.id, OTHER_KEY);
    assert.throws(() => service.trustKey(host.id, STRANGER_KEY), apiError('conflict', /already has a pinned key; replacing it is a separate, explicit action/));
    assert.equal(hosts.get(host.id).hostKeyFingerprint, OTHER_KEY);
  });

  test('replacing is refused when no key is pinned', () => {
    const host = service.add(sshHost);
    assert.throws(() => service.replaceKey(host.id, STRANGER_KEY), apiError('conflict', /has no pinned key to replace/));
    assert.equal(hosts.get(host.id).hostKeyFingerprint, null);
  });

  test('a key the host did not present is never pinned, first use or replace', () => {
    const host = service.add(sshHost);
    assert.throws(() => service.trustKey(host.id, STRANGER_KEY), apiError('invalid_args', /^fingerprint: .* is not the key server presented; connect first/));
    assert.equal(hosts.get(host.id).hostKeyFingerprint, null);
    hosts.pinKey(host.id, OTHER_KEY);
    assert.throws(() => service.replaceKey(host.id, STRANGER_KEY), apiError('invalid_args', /is not the key server presented/));
    assert.equal(hosts.get(host.id).hostKeyFingerprint, OTHER_KEY);
    assert.ok(!logged.some((line) => /pinned host key|replaced the pinned/.test(line)), logged.join('\n'));
  });

  test('an unknown host is not_found', () => {
    assert.throws(() => service.trustKey(42, STRANGER_KEY), apiError('not_found', /42/));
  });

  const skip = labSkipReason();
  test('the key the lab server presented is pinned on first use, then the host connects', { skip: skip ?? false }, async () => {
    const targets = await labTargets();
    const host = service.add({ name: 'lab server', address: targets.server.address, port: 22, user: 'root', auth: 'key', keyPath: targets.keyPath });
    await assert.rejects(service.connect(host.id), { code: 'host_key_unknown' });
    const pinned = service.trustKey(host.id, targets.server.pinnedFingerprint!);
    assert.equal(pinned.hostKeyFingerprint, targets.server.pinnedFingerprint);
    assert.equal((await service.connect(host.id)).state, 'connected');
    assert.ok(logged.includes(`lab server: pinned host key ${targets.server.pinnedFingerprint}`), logged.join('\n'));
    assert.ok(logged.includes('lab server: connected'), logged.join('\n'));
    assert.throws(() => service.trustKey(host.id, targets.server.pinnedFingerprint!), apiError('conflict', /already has a pinned key/));
  });
});

describe('the system-info cache', () => {
  let reading: SystemInfo;
  beforeEach(async () => {
    reading = await collectSystemInfo(new LocalTransport());
  });

  const older = (info: SystemInfo, marker: string): SystemInfo => ({ ...info, hostname: marker, takenAt: '2020-01-01T00:00:00.000Z' });

  test('a host never connected answers what is stored, refresh or not, and null when nothing is', async () => {
    const host = service.add(sshHost);
    assert.equal(await service.systemInfo(host.id), null);
    assert.equal(await service.systemInfo(host.id, { refresh: true }), null);
    snapshots.add(host.id, older(reading, 'stored-server'));
    assert.equal((await service.systemInfo(host.id))?.hostname, 'stored-server');
    assert.equal((await service.systemInfo(host.id, { refresh: true }))?.hostname, 'stored-server');
  });

  test('a connected host answers the stored reading unless asked to refresh; a refresh is stored', async () => {
    const local = service.addLocal();
    assert.equal(service.connections().find((connection) => connection.hostId === local.id)?.state, 'connected');
    snapshots.add(local.id, older(reading, 'stored-local'));
    assert.equal((await service.systemInfo(local.id))?.hostname, 'stored-local');
    const fresh = await service.systemInfo(local.id, { refresh: true });
    assert.equal(fresh?.hostname, reading.hostname);
    assert.ok(fresh!.takenAt > '2020-01-01T00:00:00.000Z');
    assert.deepEqual(snapshots.latest(local.id), fresh);
    assert.deepEqual(await service.systemInfo(local.id), fresh);
  });

  test('a connected host with nothing stored is read and the reading stored', async () => {
    const local = service.addLocal();
    service.connections();
    assert.equal(snapshots.latest(local.id), null);
    const info = await service.systemInfo(local.id);
    assert.equal(info?.hostname, reading.hostname);
    assert.deepEqual(snapshots.latest(local.id), info);
  });
});

describe('entries', () => {
  test('add, update and remove are logged; remove drops the connection first', () => {
    const added = service.add(sshHost);
    const updated = service.update(added.id, { ...sshHost, name: 'server 2' });
    assert.equal(updated.name, 'server 2');
    assert.equal(service.remove(added.id), true);
    assert.deepEqual(service.list(), []);
    assert.equal(connections.state(added.id).state, 'disconnected');
    assert.deepEqual(logged, ['added host "server" (bench@10.0.0.3:22)', 'updated host "server 2"', 'removed host "server 2"']);
  });
});
