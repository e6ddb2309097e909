// A store for tests: Benchlab's database opened in a fresh data dir, closed and the dir removed once
// the tests are done, either once for a test file or afresh for each of its tests.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, beforeEach } from 'node:test';
import { openDatabase, type OpenedDatabase } from '../../main/services/store/database.ts';

type Db = OpenedDatabase['db'];

function open(name: string): { db: Db; dir: string; close(): void } {
  const dir = mkdtempSync(join(tmpdir(), `benchlab-${name}-`));
  const { db } = openDatabase(dir);
  return {
    db,
    dir,
    close: () => {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** `name` tells the data dir apart in the temp folder (benchlab-<name>-…). */
export function openTestDatabase(name: string): { db: Db; dir: string } {
  const opened = open(name);
  after(opened.close);
  return { db: opened.db, dir: opened.dir };
}

/**
 * A store of its own for each test of the file: opened before each test, closed and removed after
 * it. Call it at the file's top level (before its own `beforeEach` hooks, which then see the new
 * store) and read `db` and `dir` inside the hooks and tests.
 */
export function testDatabasePerTest(name: string): { readonly db: Db; readonly dir: string } {
  let current: ReturnType<typeof open> | undefined;
  beforeEach(() => {
    current = open(name);
  });
  afterEach(() => {
    current?.close();
    current = undefined;
  });
  const opened = (): ReturnType<typeof open> => {
    if (!current) throw new Error('the per-test database is read outside a test');
    return current;
  };
  return {
    get db() {
      return opened().db;
    },
    get dir() {
      return opened().dir;
    },
  };
}
