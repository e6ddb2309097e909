// A store for one test file: Benchlab's database opened in a fresh data dir, closed and the dir
// removed once the file's tests are done.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { openDatabase, type OpenedDatabase } from '../../main/services/store/database.ts';

/** `name` tells the data dir apart in the temp folder (benchlab-<name>-…). */
export function openTestDatabase(name: string): { db: OpenedDatabase['db']; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), `benchlab-${name}-`));
  const { db } = openDatabase(dir);
  after(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { db, dir };
}
