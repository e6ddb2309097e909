import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseJsonColumn, readJsonColumn } from './json-column.ts';

test('a stored JSON value reads back; a damaged or missing one reads as the fallback', () => {
  assert.deepEqual(parseJsonColumn('{"a":1}', {}), { a: 1 });
  assert.deepEqual(parseJsonColumn('{"a":', { none: true }), { none: true });
  assert.equal(parseJsonColumn(null, 7), 7);
});

test('the strict reader names the damaged column instead of guessing', () => {
  assert.deepEqual(readJsonColumn('["x"]', 'change keys'), ['x']);
  assert.throws(() => readJsonColumn('["x"', 'restore record'), /^Error: the stored restore record is not valid JSON/);
});
