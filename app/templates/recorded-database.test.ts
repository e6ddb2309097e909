import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { DatabaseFacts } from './template-database.ts';
import { databaseSettingsText, describeDatabase, recordedDatabaseOf } from './recorded-database.ts';

const facts: DatabaseFacts = {
  kind: 'postgresql',
  version: '15.14 (Debian 15.14-0+deb12u1)',
  port: 41234,
  name: 'benchlab',
  user: 'benchlab',
  settings: { work_mem: '4MB', zeta: '1', fsync: 'on', shared_buffers: '128MB', max_connections: '512', synchronous_commit: 'on' },
};

test('one line: kind and version, port, then the settings in their recorded order and any others by name', () => {
  assert.equal(describeDatabase(facts), 'PostgreSQL 15.14 (Debian 15.14-0+deb12u1) on port 41234 · shared_buffers 128MB, max_connections 512, synchronous_commit on, fsync on, work_mem 4MB, zeta 1');
  assert.equal(databaseSettingsText({ ...facts, settings: {} }), 'no settings recorded');
});

test("a session config's database is read back; none, an older session or a malformed record is null", () => {
  assert.deepEqual(recordedDatabaseOf({ database: facts }), facts);
  assert.equal(recordedDatabaseOf({}), null);
  assert.equal(recordedDatabaseOf({ database: { kind: 'postgresql', version: '15' } }), null);
  assert.equal(recordedDatabaseOf({ database: { ...facts, kind: 'mysql' } }), null);
});

test('a MongoDB-protocol database is recorded as which server ran it, FerretDB or mongod, with its own settings', () => {
  const ferretdb: DatabaseFacts = {
    kind: 'ferretdb',
    version: 'v1.24.2 (MongoDB 7.0.42)',
    port: 27017,
    name: 'benchlab',
    user: '',
    settings: { backend: 'sqlite', auth: 'off', bindIp: '127.0.0.1' },
  };
  assert.deepEqual(recordedDatabaseOf({ database: ferretdb }), ferretdb);
  assert.equal(describeDatabase(ferretdb), 'FerretDB v1.24.2 (MongoDB 7.0.42) on port 27017 · auth off, backend sqlite, bindIp 127.0.0.1');
  assert.equal(describeDatabase({ ...ferretdb, kind: 'mongod', version: '7.0.14' }).split(' · ')[0], 'MongoDB 7.0.14 on port 27017');
});
