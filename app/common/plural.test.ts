// plural(): one takes the singular, zero and many the plural, and an irregular plural is given.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { plural } from './plural.ts';

test('one is singular; zero and many are plural; an irregular plural is used as given', () => {
  assert.equal(plural(1, 'session'), '1 session');
  assert.equal(plural(0, 'session'), '0 sessions');
  assert.equal(plural(3, 'run'), '3 runs');
  assert.equal(plural(2, 'repeat', 'repeats of it'), '2 repeats of it');
});
