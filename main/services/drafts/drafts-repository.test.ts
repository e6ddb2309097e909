// Tests of the drafts repository on a real SQLite file: missing keys, round trips, overwrites,
// clearing, and a stored value that no longer parses.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { openDatabase, type Db } from '../store/database.ts';
import { DraftsRepository } from './drafts-repository.ts';

let dir: string;
let db: Db;
let drafts: DraftsRepository;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'benchlab-drafts-test-'));
  db = openDatabase(dir).db;
  drafts = new DraftsRepository(db);
});

afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('DraftsRepository', () => {
  test('a missing key reads as null', () => {
    assert.equal(drafts.get('wizard'), null);
  });

  test('save then get round-trips the value and gives when it was saved', () => {
    const value = { step: 3, targets: [{ templateId: 'node', variant: 'async' }], name: 'wrk — seed', revert: false, note: null };
    const before = Date.now();
    const savedAt = drafts.save('wizard', value);
    assert.match(savedAt, ISO);
    assert.ok(Date.parse(savedAt) >= before - 1 && Date.parse(savedAt) <= Date.now() + 1);
    const read = drafts.get('wizard');
    assert.deepEqual(read, { value, updatedAt: savedAt });
  });

  test('other JSON values round-trip too', () => {
    for (const [key, value] of [
      ['array', [1, 'two', { three: 3 }]],
      ['string', 'text'],
      ['number', 42.5],
      ['false', false],
      ['null', null],
    ] as const) {
      drafts.save(key, value);
      assert.deepEqual(drafts.get(key)?.value, value, key);
    }
  });

  test('saving again overwrites the value and its time, one row per key', (t) => {
    // The clock is the test's: 5 ms pass between the saves without waiting for them.
    t.mock.timers.enable({ apis: ['Date'], now: Date.parse('2026-03-01T10:00:00.000Z') });
    const first = drafts.save('wizard', { step: 1 });
    t.mock.timers.tick(5);
    const second = drafts.save('wizard', { step: 2 });
    assert.deepEqual([first, second], ['2026-03-01T10:00:00.000Z', '2026-03-01T10:00:00.005Z']);
    assert.ok(second > first, `${second} should be after ${first}`);
    assert.deepEqual(drafts.get('wizard'), { value: { step: 2 }, updatedAt: second });
    assert.equal((db.prepare("SELECT count(*) AS n FROM draft WHERE key = 'wizard'").get() as { n: number }).n, 1);
  });

  test('keys are independent', () => {
    drafts.save('a', { n: 1 });
    drafts.save('b', { n: 2 });
    assert.deepEqual(drafts.get('a')?.value, { n: 1 });
    assert.deepEqual(drafts.get('b')?.value, { n: 2 });
    assert.equal(drafts.clear('a'), true);
    assert.equal(drafts.get('a'), null);
    assert.deepEqual(drafts.get('b')?.value, { n: 2 });
  });

  test('clear says whether there was something to clear', () => {
    drafts.save('wizard', { step: 1 });
    assert.equal(drafts.clear('wizard'), true);
    assert.equal(drafts.get('wizard'), null);
    assert.equal(drafts.clear('wizard'), false);
    assert.equal(drafts.clear('never-saved'), false);
  });

  test('a stored value that is not JSON reads as null', () => {
    db.prepare('INSERT INTO draft (key, value, updated_at) VALUES (?, ?, ?)').run('broken', '{not json', '2026-01-01T00:00:00.000Z');
    assert.equal(drafts.get('broken'), null);
    // It can still be replaced or cleared.
    drafts.save('broken', { fixed: true });
    assert.deepEqual(drafts.get('broken')?.value, { fixed: true });
    assert.equal(drafts.clear('broken'), true);
  });

  test('the draft survives closing and reopening the database', () => {
    const savedAt = drafts.save('wizard', { step: 4 });
    db.close();
    db = openDatabase(dir).db;
    drafts = new DraftsRepository(db);
    assert.deepEqual(drafts.get('wizard'), { value: { step: 4 }, updatedAt: savedAt });
  });
});
