import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { DatabaseFacts } from '../templates/template-database.ts';
import { diffDatabases } from './database-diff.ts';

const facts = (change: Partial<DatabaseFacts> = {}): DatabaseFacts => ({
  kind: 'postgresql',
  version: '15.14',
  port: 41234,
  name: 'benchlab',
  user: 'benchlab',
  settings: { shared_buffers: '128MB', max_connections: '512', fsync: 'on' },
  ...change,
});

test('no session with a database: no rows and no warning', () => {
  assert.deepEqual(diffDatabases([null, null]), { rows: [], warnings: [] });
});

test('the same database on another port is alike: the port is where it listened, not how it was set up', () => {
  const diff = diffDatabases([facts(), facts({ port: 50000 })]);
  assert.deepEqual(diff.rows, [
    { role: 'server', label: 'database', values: ['PostgreSQL 15.14', 'PostgreSQL 15.14'], differs: false },
    { role: 'server', label: 'database settings', values: ['shared_buffers 128MB, max_connections 512, fsync on', 'shared_buffers 128MB, max_connections 512, fsync on'], differs: false },
  ]);
  assert.deepEqual(diff.warnings, []);
});

test('another version or other settings are flagged and warned about', () => {
  const versions = diffDatabases([facts(), facts({ version: '16.4' })]);
  assert.deepEqual(versions.rows.map((row) => row.differs), [true, false]);
  assert.match(versions.warnings.join(' '), /databases differ in version:/);
  const settings = diffDatabases([facts(), facts({ settings: { ...facts().settings, fsync: 'off' } })]);
  assert.deepEqual(settings.rows.map((row) => row.differs), [false, true]);
  assert.match(settings.warnings.join(' '), /databases differ in settings:/);
});

test('a session that recorded no database reads as not recorded, not as a difference', () => {
  const diff = diffDatabases([facts(), null]);
  assert.deepEqual(diff.rows[0]!.values, ['PostgreSQL 15.14', null]);
  assert.equal(diff.rows.some((row) => row.differs), false);
  assert.deepEqual(diff.warnings, []);
});
