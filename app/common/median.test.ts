import assert from 'node:assert/strict';
import { test } from 'node:test';
import { median } from './median.ts';

test('median: the middle value of an odd count, the mean of the two middle ones of an even count, NaN of none', () => {
  assert.equal(median([5, 1, 3]), 3);
  assert.equal(median([4, 1, 3, 2]), 2.5);
  assert.equal(median([7]), 7);
  assert.ok(Number.isNaN(median([])));
  const values = [3, 1, 2];
  median(values);
  assert.deepEqual(values, [3, 1, 2], 'the input is left unsorted');
});
