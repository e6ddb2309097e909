// Tests of the store on real SQLite files: migrations, reopening, failed migrations, newer and corrupt files.

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { createServices } from '../services.ts';
import { DATABASE_FILE_NAME, migrate, NewerSchemaError, openDatabase, type Db } from './database.ts';
import { LATEST_SCHEMA_VERSION, MIGRATIONS, type Migration } from './migrations.ts';

const ENTITY_TABLES = ['host', 'session', 'run', 'sample', 'host_snapshot', 'change', 'event'];
const FIXED_NOW = new Date('2026-01-02T03:04:05.678Z');
const FIXED_STAMP = '2026-01-02T03-04-05-678Z';

let dir: string;
const opened: Db[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'benchlab-db-test-'));
});

afterEach(() => {
  for (const db of opened.splice(0)) if (db.open) db.close();
  rmSync(dir, { recursive: true, force: true });
});

function track<T extends { db: Db }>(result: T): T {
  opened.push(result.db);
  return result;
}

function tables(db: Db): string[] {
  return (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as Array<{ name: string }>).map(
    (row) => row.name,
  );
}

function schema(db: Db): Array<{ type: string; name: string; sql: string | null }> {
  return db.prepare('SELECT type, name, sql FROM sqlite_master ORDER BY type, name').all() as Array<{
    type: string;
    name: string;
    sql: string | null;
  }>;
}

function userVersion(db: Db): number {
  return db.pragma('user_version', { simple: true }) as number;
}

function insertHost(db: Db, name: string): void {
  db.prepare(
    "INSERT INTO host (name, address, port, username, auth_kind, created_at, updated_at) VALUES (?, '10.0.0.2', 22, 'bench', 'agent', 'now', 'now')",
  ).run(name);
}

/** Creates a real, populated database file and closes it. */
function makeRealDatabase(): string {
  const { db, file } = openDatabase(dir);
  insertHost(db, 'kept host');
  db.prepare("INSERT INTO session (name, created_at) VALUES ('a session', 'now')").run();
  db.close();
  return file;
}

describe('openDatabase on a fresh file', () => {
  test('migrates to the latest version with every entity table, WAL and foreign keys on', () => {
    const { db, file, notices } = track(openDatabase(join(dir, 'nested', 'data')));
    assert.equal(file, join(dir, 'nested', 'data', DATABASE_FILE_NAME));
    assert.ok(statSync(file).isFile());
    assert.deepEqual(notices, []);
    assert.ok(LATEST_SCHEMA_VERSION >= 1);
    assert.equal(userVersion(db), LATEST_SCHEMA_VERSION);
    const present = tables(db);
    for (const table of ENTITY_TABLES) assert.ok(present.includes(table), `table ${table} is missing (have ${present.join(', ')})`);
    assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
    assert.equal(db.pragma('foreign_keys', { simple: true }), 1);
    assert.equal(db.pragma('synchronous', { simple: true }), 2); // FULL
  });

  test('the file on disk is in WAL mode for the next opener too', () => {
    const file = makeRealDatabase();
    const raw = new Database(file, { readonly: true });
    try {
      assert.equal(raw.pragma('journal_mode', { simple: true }), 'wal');
      assert.equal(userVersion(raw), LATEST_SCHEMA_VERSION);
    } finally {
      raw.close();
    }
  });

  test('migration versions strictly increase and the latest is the last', () => {
    for (let i = 1; i < MIGRATIONS.length; i++) assert.ok(MIGRATIONS[i]!.version > MIGRATIONS[i - 1]!.version);
    assert.equal(LATEST_SCHEMA_VERSION, MIGRATIONS.at(-1)!.version);
  });

  test('foreign keys cascade from session to run to sample', () => {
    const { db } = track(openDatabase(dir));
    const session = db.prepare("INSERT INTO session (name, created_at) VALUES ('s', 'now')").run().lastInsertRowid;
    const run = db
      .prepare("INSERT INTO run (session_id, ordinal, template_id, variant) VALUES (?, 1, 'node', 'async')")
      .run(session).lastInsertRowid;
    db.prepare('INSERT INTO sample (run_id, second, requests, bytes) VALUES (?, 1, 10, 100)').run(run);
    db.prepare('DELETE FROM session WHERE id = ?').run(session);
    assert.equal((db.prepare('SELECT count(*) AS n FROM sample').get() as { n: number }).n, 0);
    assert.equal((db.prepare('SELECT count(*) AS n FROM run').get() as { n: number }).n, 0);
  });
});

/** Permission bits of a file, as `ls -l` shows them. */
function modeOf(path: string): string {
  return (statSync(path).mode & 0o777).toString(8).padStart(4, '0');
}

/** Runs `work` under a umask that lets group and others read new files, as many desktops have. */
function withUmask<T>(mask: number, work: () => T): T {
  const previous = process.umask(mask);
  try {
    return work();
  } finally {
    process.umask(previous);
  }
}

describe('the data file is for its owner only', () => {
  test('a fresh benchlab.db, its -wal and its -shm are 0600 after writes, even under umask 022', () => {
    const { db, file } = withUmask(0o022, () => track(openDatabase(join(dir, 'data'))));
    withUmask(0o022, () => insertHost(db, 'a host'));
    assert.ok(existsSync(`${file}-wal`) && existsSync(`${file}-shm`), 'WAL companions exist while open');
    assert.deepEqual([file, `${file}-wal`, `${file}-shm`].map(modeOf), ['0600', '0600', '0600']);
  });

  test('an existing 0644 file and companions (from an older Benchlab) are tightened at open', () => {
    const file = makeRealDatabase();
    // Another connection keeps the -wal and -shm in place, created 0644 as before the fix.
    const raw = withUmask(0o022, () => {
      chmodSync(file, 0o644);
      const other = new Database(file);
      other.prepare("INSERT INTO session (name, created_at) VALUES ('pending', 'now')").run();
      return other;
    });
    try {
      assert.deepEqual([file, `${file}-wal`, `${file}-shm`].map(modeOf), ['0644', '0644', '0644']);
      track(openDatabase(dir));
      assert.deepEqual([file, `${file}-wal`, `${file}-shm`].map(modeOf), ['0600', '0600', '0600']);
    } finally {
      raw.close();
    }
  });
});

describe('reopening', () => {
  test('is a no-op: same version, same schema, data kept, no notices', () => {
    const file = makeRealDatabase();
    const before = new Database(file, { readonly: true });
    const schemaBefore = schema(before);
    before.close();

    const { db, notices } = track(openDatabase(dir));
    assert.deepEqual(notices, []);
    assert.equal(userVersion(db), LATEST_SCHEMA_VERSION);
    assert.deepEqual(schema(db), schemaBefore);
    assert.deepEqual(db.prepare('SELECT name FROM host').all(), [{ name: 'kept host' }]);
    assert.equal(migrate(db), LATEST_SCHEMA_VERSION);
    assert.deepEqual(schema(db), schemaBefore);
    assert.deepEqual(
      readdirSync(dir).filter((name) => name.includes('corrupt')),
      [],
    );
  });
});

describe('migrate', () => {
  const good: Migration = { version: 1, description: 'one table', sql: 'CREATE TABLE first (x INTEGER);' };

  test('applies pending migrations in order and reports the version', () => {
    const db = new Database(join(dir, 'm.db'));
    opened.push(db);
    const second: Migration = { version: 2, description: 'second', sql: 'CREATE TABLE second (y TEXT); INSERT INTO first VALUES (7);' };
    assert.equal(migrate(db, [good]), 1);
    assert.equal(migrate(db, [good, second]), 2);
    assert.equal(userVersion(db), 2);
    assert.deepEqual(tables(db), ['first', 'second']);
    assert.deepEqual(db.prepare('SELECT x FROM first').all(), [{ x: 7 }]);
    // Already applied migrations are not run again.
    assert.equal(migrate(db, [good, second]), 2);
    assert.deepEqual(db.prepare('SELECT x FROM first').all(), [{ x: 7 }]);
  });

  test('a migration failing midway leaves version and schema as they were', () => {
    const file = join(dir, 'm.db');
    const db = new Database(file);
    opened.push(db);
    migrate(db, [good]);
    db.prepare('INSERT INTO first VALUES (1)').run();
    const schemaBefore = schema(db);

    const broken: Migration = {
      version: 2,
      description: 'fails after creating a table',
      sql: `
        CREATE TABLE half_done (z INTEGER);
        INSERT INTO first VALUES (2);
        ALTER TABLE first ADD COLUMN extra TEXT;
        INSERT INTO no_such_table VALUES (1);
      `,
    };
    assert.throws(() => migrate(db, [good, broken]), /no_such_table/);
    assert.equal(db.inTransaction, false);
    assert.equal(userVersion(db), 1);
    assert.deepEqual(schema(db), schemaBefore);
    assert.deepEqual(db.prepare('SELECT x FROM first').all(), [{ x: 1 }]);
    db.close();

    // And on disk, seen by a fresh connection.
    const again = new Database(file);
    opened.push(again);
    assert.equal(userVersion(again), 1);
    assert.ok(!tables(again).includes('half_done'));
    // A corrected migration then applies cleanly.
    const fixed: Migration = { ...broken, sql: 'CREATE TABLE half_done (z INTEGER);' };
    assert.equal(migrate(again, [good, fixed]), 2);
    assert.ok(tables(again).includes('half_done'));
  });

  test('a failing later migration keeps the earlier ones that succeeded', () => {
    const db = new Database(join(dir, 'm.db'));
    opened.push(db);
    const broken: Migration = { version: 2, description: 'bad', sql: 'CREATE TABLE t2 (a); SELECT * FROM missing;' };
    assert.throws(() => migrate(db, [good, broken]));
    assert.equal(userVersion(db), 1);
    assert.deepEqual(tables(db), ['first']);
  });
});

describe('a file from a newer Benchlab', () => {
  test('is refused with NewerSchemaError and left byte-identical', () => {
    const file = makeRealDatabase();
    const raw = new Database(file);
    raw.pragma(`user_version = ${LATEST_SCHEMA_VERSION + 5}`);
    raw.close();
    const filesBefore = readdirSync(dir).sort();
    const bytesBefore = readFileSync(file);

    assert.throws(
      () => openDatabase(dir),
      (error: unknown) => {
        assert.ok(error instanceof NewerSchemaError);
        assert.equal(error.fileVersion, LATEST_SCHEMA_VERSION + 5);
        assert.match(error.message, /newer/);
        assert.ok(error.message.includes(file), error.message);
        assert.ok(error.message.includes(String(LATEST_SCHEMA_VERSION + 5)));
        return true;
      },
    );
    assert.ok(readFileSync(file).equals(bytesBefore), 'the newer file was modified');
    assert.deepEqual(readdirSync(dir).sort(), filesBefore);

    // Refused again on a second attempt, still untouched.
    assert.throws(() => openDatabase(dir), NewerSchemaError);
    assert.ok(readFileSync(file).equals(bytesBefore));
  });

  test('a -wal file beside it is left untouched too (the file is never opened through SQLite)', () => {
    const file = makeRealDatabase();
    const raw = new Database(file);
    raw.pragma(`user_version = ${LATEST_SCHEMA_VERSION + 2}`);
    raw.close();
    const wal = `${file}-wal`;
    const walBytes = randomBytes(4096);
    writeFileSync(wal, walBytes);
    const bytesBefore = readFileSync(file);
    assert.throws(() => openDatabase(dir), NewerSchemaError);
    assert.ok(readFileSync(file).equals(bytesBefore));
    assert.ok(readFileSync(wal).equals(walBytes), 'the -wal file was changed or removed');
  });

  test('createServices refuses it too', () => {
    makeRealDatabase();
    const raw = new Database(join(dir, DATABASE_FILE_NAME));
    raw.pragma(`user_version = ${LATEST_SCHEMA_VERSION + 1}`);
    raw.close();
    assert.throws(() => createServices({ dataDir: dir, transport: 'cli', version: 'test' }), NewerSchemaError);
  });
});

describe('a corrupt file', () => {
  test('a foreign file and its -wal are both kept aside byte for byte', () => {
    const file = join(dir, DATABASE_FILE_NAME);
    const main = randomBytes(8192);
    const wal = randomBytes(4096);
    writeFileSync(file, main);
    writeFileSync(`${file}-wal`, wal);
    track(openDatabase(dir, { now: () => FIXED_NOW }));
    assert.ok(readFileSync(`${file}.corrupt-${FIXED_STAMP}`).equals(main));
    assert.ok(readFileSync(`${file}.corrupt-${FIXED_STAMP}-wal`).equals(wal));
  });

  function assertSetAside(original: Buffer, notices: string[], db: Db): void {
    const kept = join(dir, `${DATABASE_FILE_NAME}.corrupt-${FIXED_STAMP}`);
    assert.ok(readdirSync(dir).includes(`${DATABASE_FILE_NAME}.corrupt-${FIXED_STAMP}`), readdirSync(dir).join(', '));
    assert.ok(readFileSync(kept).equals(original), 'the corrupt file was not kept byte for byte');
    assert.equal(notices.length, 1);
    assert.ok(notices[0]!.includes(kept), `notice does not name the kept file: ${notices[0]}`);
    // A new working database replaces it.
    assert.equal(userVersion(db), LATEST_SCHEMA_VERSION);
    for (const table of ENTITY_TABLES) assert.ok(tables(db).includes(table));
    insertHost(db, 'fresh');
    assert.deepEqual(db.prepare('SELECT name FROM host').all(), [{ name: 'fresh' }]);
  }

  test('random bytes are renamed aside with a timestamp and reported', () => {
    const file = join(dir, DATABASE_FILE_NAME);
    const garbage = randomBytes(8192);
    writeFileSync(file, garbage);
    const { db, notices } = track(openDatabase(dir, { now: () => FIXED_NOW }));
    assertSetAside(garbage, notices, db);
  });

  for (const keep of [0.5, 100 / 65536]) {
    test(`a truncated real database (${keep === 0.5 ? 'half' : 'first 100 bytes'}) is renamed aside and reported`, () => {
      const file = makeRealDatabase();
      const size = statSync(file).size;
      truncateSync(file, Math.floor(size * keep));
      const truncated = readFileSync(file);
      const { db, notices } = track(openDatabase(dir, { now: () => FIXED_NOW }));
      assertSetAside(truncated, notices, db);
      assert.match(notices[0]!, /could not be read as a database/);
    });
  }

  test('createServices reports the notice in app info and in the log', async () => {
    writeFileSync(join(dir, DATABASE_FILE_NAME), randomBytes(2048));
    const services = createServices({ dataDir: dir, transport: 'cli', version: 'test' });
    try {
      const notices = services.info().notices;
      assert.equal(notices.length, 1);
      assert.match(notices[0]!, /corrupt-/);
      const logged = services.events.recent();
      assert.ok(logged.some((line) => line.level === 'warn' && line.message === notices[0]));
    } finally {
      await services.close();
    }
  });
});
