// A session's snapshot with several clients, on a real store and this machine's shell: every
// client is read (side by side, each under its own host) and stored in order; a client that cannot
// be read is a finding that names it; one-client checks read as before.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { ApiError } from '../../../app/common/errors.ts';
import { EventBus } from '../event-bus.ts';
import type { HostConnections } from '../hosts/host-connections.ts';
import { HostsRepository } from '../hosts/hosts-repository.ts';
import { LocalTransport } from '../hosts/local-transport.ts';
import { Logger } from '../logger.ts';
import { ChangesRepository } from '../presets/changes-repository.ts';
import { openDatabase, type Db } from '../store/database.ts';
import { EventsRepository } from '../store/events-repository.ts';
import { SessionsRepository } from './sessions-repository.ts';
import { SnapshotsRepository } from '../hosts/snapshots-repository.ts';
import { SessionSnapshots } from './session-snapshot.ts';

let dir: string;
let db: Db;
let ids: { a: number; b: number; gone: number; server: number };
let snapshots: SessionSnapshots;
let sessions: SessionsRepository;

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'benchlab-session-snapshot-test-'));
  db = openDatabase(dir).db;
  const hosts = new HostsRepository(db);
  const add = (name: string) => hosts.add({ name, address: '127.0.0.1', port: 22, user: 'bench', auth: 'agent' }).id;
  ids = { a: add('client-a'), b: add('client-b'), gone: add('client-gone'), server: add('server') };
  const local = new LocalTransport();
  const connections = {
    transportFor: (hostId: number) => {
      if (hostId === ids.gone) throw new ApiError('disconnected', 'client-gone is not connected');
      return local;
    },
  } as unknown as HostConnections;
  const bus = new EventBus();
  sessions = new SessionsRepository(db);
  snapshots = new SessionSnapshots({
    hosts,
    connections,
    changes: new ChangesRepository(db),
    snapshots: new SnapshotsRepository(db),
    sessions,
    log: new Logger(new EventsRepository(db), bus),
  });
});

after(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

test('every client of a session is read and stored in order; an unreadable one is named', { timeout: 60_000 }, async () => {
  const session = sessions.create({ name: 'three clients', clientHostId: ids.a, serverHostId: ids.server, config: {}, status: 'running' }).id;
  const taken = await snapshots.take(session, { clientHostIds: [ids.a, ids.gone, ids.b], serverHostId: ids.server, port: null });
  assert.deepEqual(
    taken.clients.map((client) => client.hostName),
    ['client-a', 'client-b'],
  );
  assert.equal(taken.client?.hostName, 'client-a');
  assert.equal(taken.server?.hostName, 'server');
  const unread = taken.findings.filter((finding) => finding.kind === 'unavailable');
  assert.deepEqual(unread.map((finding) => [finding.host, finding.hostName, finding.evidence]), [['client', 'client-gone', 'client-gone is not connected']]);
  // Every host here is this machine: each client with the server, and the clients together.
  assert.ok(taken.findings.some((finding) => finding.kind === 'same-machine' && /clients client-a, client-b/.test(finding.message)));

  const stored = snapshots.ofSession(session)!;
  assert.deepEqual(stored.clients.map((client) => client.hostName), ['client-a', 'client-b']);
  assert.deepEqual(new Set(stored.findings.map((finding) => JSON.stringify(finding))), new Set(taken.findings.map((finding) => JSON.stringify(finding))));
});

test('a one-client check reads that client and the server, as before', { timeout: 60_000 }, async () => {
  const check = await snapshots.check({ clientHostIds: [ids.b], serverHostId: null, port: null });
  assert.deepEqual(check.clients.map((client) => client.hostName), ['client-b']);
  assert.equal(check.client?.hostName, 'client-b');
  assert.equal(check.server, null);
});
