// Tests of the hosts and sessions repositories on a real SQLite file: CRUD, conflicts, pinned keys, cascades.

import assert from 'node:assert/strict';
import { beforeEach, describe, test } from 'node:test';
import { apiError } from '../../../tests/support/api-error.ts';
import { testDatabasePerTest } from '../../../tests/support/test-database.ts';
import { HostsRepository, type ValidHostInput } from '../hosts/hosts-repository.ts';
import { SessionsRepository } from '../runs/sessions-repository.ts';

const store = testDatabasePerTest('repo-test');
let hosts: HostsRepository;
let sessions: SessionsRepository;

beforeEach(() => {
  hosts = new HostsRepository(store.db);
  sessions = new SessionsRepository(store.db);
});

function hostInput(overrides: Partial<ValidHostInput> = {}): ValidHostInput {
  return { name: 'client', address: '10.0.0.2', port: 22, user: 'bench', auth: 'agent', ...overrides };
}

function count(table: string): number {
  return (store.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
}

function pin(id: number, fingerprint: string): void {
  store.db.prepare("UPDATE host SET host_key_fingerprint = ?, host_key_pinned_at = '2026-01-01T00:00:00.000Z' WHERE id = ?").run(fingerprint, id);
}

function pinnedAt(id: number): string | null {
  return (store.db.prepare('SELECT host_key_pinned_at AS at FROM host WHERE id = ?').get(id) as { at: string | null }).at;
}

function addChange(hostId: number, status: string): number {
  return Number(
    store.db
      .prepare("INSERT INTO change (host_id, preset_id, keys, previous, applied, status) VALUES (?, 'wrk-seed', '[]', '{}', '{}', ?)")
      .run(hostId, status).lastInsertRowid,
  );
}

describe('hosts repository', () => {
  test('add returns the stored host and list returns them sorted by name, case-insensitively', () => {
    const now = new Date('2026-02-03T04:05:06.000Z');
    const added = hosts.add(hostInput({ name: 'zeta', auth: 'key', keyPath: '/home/me/.ssh/id_ed25519' }), now);
    assert.equal(typeof added.id, 'number');
    assert.deepEqual(added, {
      id: added.id,
      name: 'zeta',
      kind: 'ssh',
      jumpHostId: null,
      address: '10.0.0.2',
      port: 22,
      user: 'bench',
      auth: 'key',
      keyPath: '/home/me/.ssh/id_ed25519',
      hostKeyFingerprint: null,
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    });
    hosts.add(hostInput({ name: 'Alpha', address: '::1' }));
    hosts.add(hostInput({ name: 'beta', address: 'server.lab', port: 2222 }));
    assert.deepEqual(
      hosts.list().map((host) => host.name),
      ['Alpha', 'beta', 'zeta'],
    );
    assert.deepEqual(hosts.get(added.id), added);
    const beta = hosts.list().find((host) => host.name === 'beta');
    assert.equal(beta?.port, 2222);
    assert.equal(beta?.address, 'server.lab');
    assert.equal('keyPath' in (beta ?? {}), false);
  });

  test('list is empty on a fresh store', () => {
    assert.deepEqual(hosts.list(), []);
  });

  test('a duplicate name (any case) is a conflict and stores nothing', () => {
    hosts.add(hostInput({ name: 'client' }));
    for (const name of ['client', 'CLIENT', 'Client']) {
      assert.throws(() => hosts.add(hostInput({ name, address: '10.0.0.9' })), apiError('conflict', /^name: .*already exists/));
    }
    assert.equal(count('host'), 1);
  });

  test('update changes every field and refuses a name taken by another host', () => {
    const first = hosts.add(hostInput({ name: 'first' }), new Date('2026-01-01T00:00:00.000Z'));
    const second = hosts.add(hostInput({ name: 'second', address: '10.0.0.3' }));
    const later = new Date('2026-03-01T00:00:00.000Z');
    const updated = hosts.update(first.id, hostInput({ name: 'renamed', address: '10.0.0.4', port: 2200, user: 'root', auth: 'password' }), later);
    assert.equal(updated.name, 'renamed');
    assert.equal(updated.address, '10.0.0.4');
    assert.equal(updated.port, 2200);
    assert.equal(updated.user, 'root');
    assert.equal(updated.auth, 'password');
    assert.equal(updated.createdAt, first.createdAt);
    assert.equal(updated.updatedAt, later.toISOString());
    assert.deepEqual(hosts.get(first.id), updated);

    assert.throws(() => hosts.update(first.id, hostInput({ name: 'SECOND' })), apiError('conflict', /already exists/));
    assert.deepEqual(hosts.get(first.id), updated, 'a refused update changed the host');
    assert.equal(hosts.get(second.id).name, 'second');
    // Keeping its own name is not a conflict.
    assert.equal(hosts.update(second.id, hostInput({ name: 'second', address: '10.0.0.3', user: 'other' })).user, 'other');
  });

  test('update can drop the key path', () => {
    const host = hosts.add(hostInput({ auth: 'key', keyPath: '/k' }));
    const updated = hosts.update(host.id, hostInput({ auth: 'agent' }));
    assert.equal(updated.keyPath, undefined);
    assert.equal((store.db.prepare('SELECT key_path FROM host WHERE id = ?').get(host.id) as { key_path: unknown }).key_path, null);
  });

  test('missing ids are not_found for get and update; remove reports false', () => {
    assert.throws(() => hosts.get(999), apiError('not_found', /999/));
    assert.throws(() => hosts.update(999, hostInput()), apiError('not_found', /999/));
    assert.equal(count('host'), 0);
    assert.equal(hosts.remove(999), false);
  });

  test('an update that changes the address or port clears the pinned host key', () => {
    const host = hosts.add(hostInput());
    pin(host.id, 'SHA256:abc');
    assert.equal(hosts.get(host.id).hostKeyFingerprint, 'SHA256:abc');

    const moved = hosts.update(host.id, hostInput({ address: '10.0.0.99' }));
    assert.equal(moved.hostKeyFingerprint, null);
    assert.equal(pinnedAt(host.id), null);

    pin(host.id, 'SHA256:def');
    const reported = hosts.update(host.id, hostInput({ address: '10.0.0.99', port: 2222 }));
    assert.equal(reported.hostKeyFingerprint, null);
    assert.equal(pinnedAt(host.id), null);
  });

  test('an update keeping address and port keeps the pinned host key', () => {
    const host = hosts.add(hostInput());
    pin(host.id, 'SHA256:keep');
    const updated = hosts.update(host.id, hostInput({ name: 'new name', user: 'root', auth: 'password' }));
    assert.equal(updated.hostKeyFingerprint, 'SHA256:keep');
    assert.equal(pinnedAt(host.id), '2026-01-01T00:00:00.000Z');
  });

  test('remove deletes the host and says so', () => {
    const keep = hosts.add(hostInput({ name: 'keep' }));
    const gone = hosts.add(hostInput({ name: 'gone' }));
    assert.equal(hosts.remove(gone.id), true);
    assert.deepEqual(
      hosts.list().map((host) => host.id),
      [keep.id],
    );
    assert.throws(() => hosts.get(gone.id), apiError('not_found'));
    assert.equal(hosts.remove(gone.id), false);
  });

  for (const status of ['pending', 'applied']) {
    test(`remove is refused while a preset change is ${status}`, () => {
      const host = hosts.add(hostInput());
      addChange(host.id, status);
      assert.throws(() => hosts.remove(host.id), apiError('conflict', /revert/));
      assert.equal(hosts.get(host.id).id, host.id);
      assert.equal(count('change'), 1);
    });
  }

  test('remove is refused while any one of several changes is still applied', () => {
    const host = hosts.add(hostInput());
    addChange(host.id, 'reverted');
    const applied = addChange(host.id, 'applied');
    assert.throws(() => hosts.remove(host.id), apiError('conflict'));
    store.db.prepare("UPDATE change SET status = 'reverted' WHERE id = ?").run(applied);
    assert.equal(hosts.remove(host.id), true);
  });

  for (const status of ['reverted', 'failed']) {
    test(`remove succeeds once changes are ${status}`, () => {
      const host = hosts.add(hostInput());
      const other = hosts.add(hostInput({ name: 'other' }));
      addChange(host.id, status);
      const othersChange = addChange(other.id, 'applied');
      assert.equal(hosts.remove(host.id), true);
      assert.throws(() => hosts.get(host.id), apiError('not_found'));
      // Another host's journal is untouched.
      assert.deepEqual(store.db.prepare('SELECT id FROM change').all(), [{ id: othersChange }]);
    });
  }

  test('remove leaves sessions that used the host, with the reference cleared', () => {
    const host = hosts.add(hostInput());
    const session = sessions.create({ name: 'uses host', clientHostId: host.id, serverHostId: host.id });
    assert.equal(hosts.remove(host.id), true);
    const after = sessions.get(session.id);
    assert.equal(after.clientHostId, null);
    assert.equal(after.serverHostId, null);
  });
});

describe('sessions repository', () => {
  function insertRun(sessionId: number, ordinal: number): number {
    return Number(
      store.db
        .prepare("INSERT INTO run (session_id, ordinal, template_id, variant) VALUES (?, ?, 'node', 'async')")
        .run(sessionId, ordinal).lastInsertRowid,
    );
  }

  function insertSample(runId: number, second: number): void {
    store.db.prepare('INSERT INTO sample (run_id, second, requests, bytes) VALUES (?, ?, 100, 4300)').run(runId, second);
  }

  test('create then get returns every field', () => {
    const client = hosts.add(hostInput({ name: 'c' }));
    const server = hosts.add(hostInput({ name: 's', address: '10.0.0.3' }));
    const now = new Date('2026-04-05T06:07:08.000Z');
    const created = sessions.create(
      {
        name: 'Tomcat BIO vs NIO',
        notes: 'seed 1',
        tags: ['tomcat', 'gatling'],
        clientHostId: client.id,
        serverHostId: server.id,
        config: { rate: [52500, 60000], file: '/file' },
        status: 'completed',
      },
      now,
    );
    assert.deepEqual(sessions.get(created.id), {
      id: created.id,
      name: 'Tomcat BIO vs NIO',
      status: 'completed',
      tags: ['tomcat', 'gatling'],
      clientHostId: client.id,
      serverHostId: server.id,
      runCount: 0,
      createdAt: now.toISOString(),
      startedAt: null,
      endedAt: null,
      notes: 'seed 1',
      config: { rate: [52500, 60000], file: '/file' },
      originSessionId: null,
    });
    assert.equal(sessions.create({ name: 'defaults' }).status, 'draft');
  });

  test('list is newest first and counts runs', () => {
    const older = sessions.create({ name: 'older' }, new Date('2026-01-01T00:00:00.000Z'));
    const newer = sessions.create({ name: 'newer' }, new Date('2026-02-01T00:00:00.000Z'));
    insertRun(older.id, 1);
    insertRun(older.id, 2);
    const listed = sessions.list();
    assert.deepEqual(
      listed.map((s) => [s.name, s.runCount]),
      [
        ['newer', 0],
        ['older', 2],
      ],
    );
    assert.equal(listed[0]?.id, newer.id);
    assert.equal(sessions.get(older.id).runCount, 2);
  });

  test('get and rename of a missing session are not_found', () => {
    assert.throws(() => sessions.get(42), apiError('not_found', /42/));
    assert.throws(() => sessions.rename(42, 'x'), apiError('not_found', /42/));
    assert.throws(() => sessions.delete(42), apiError('not_found', /42/));
  });

  test('rename changes only the name', () => {
    const created = sessions.create({ name: 'before', notes: 'n', tags: ['t'], config: { a: 1 } });
    const renamed = sessions.rename(created.id, 'after');
    assert.deepEqual(renamed, { ...created, name: 'after' });
    assert.deepEqual(sessions.get(created.id), renamed);
  });

  test('delete cascades to runs and samples of that session only', () => {
    const doomed = sessions.create({ name: 'doomed' });
    const kept = sessions.create({ name: 'kept' });
    const run1 = insertRun(doomed.id, 1);
    const run2 = insertRun(doomed.id, 2);
    for (let s = 0; s < 5; s++) {
      insertSample(run1, s);
      insertSample(run2, s);
    }
    const keptRun = insertRun(kept.id, 1);
    insertSample(keptRun, 0);
    insertSample(keptRun, 1);
    assert.equal(count('sample'), 12);

    assert.equal(sessions.delete(doomed.id), true);
    assert.throws(() => sessions.get(doomed.id), apiError('not_found'));
    assert.deepEqual(store.db.prepare('SELECT id FROM run').all(), [{ id: keptRun }]);
    assert.equal(count('sample'), 2);
    assert.equal((store.db.prepare('SELECT count(*) AS n FROM sample WHERE run_id = ?').get(keptRun) as { n: number }).n, 2);
    assert.deepEqual(
      sessions.list().map((s) => s.name),
      ['kept'],
    );
  });

  test('a running session cannot be deleted; its runs stay', () => {
    const running = sessions.create({ name: 'live', status: 'running' });
    const run = insertRun(running.id, 1);
    insertSample(run, 0);
    assert.throws(() => sessions.delete(running.id), apiError('conflict', /running/));
    assert.equal(sessions.get(running.id).runCount, 1);
    assert.equal(count('sample'), 1);
    store.db.prepare("UPDATE session SET status = 'interrupted' WHERE id = ?").run(running.id);
    assert.equal(sessions.delete(running.id), true);
    assert.equal(count('sample'), 0);
  });
});
