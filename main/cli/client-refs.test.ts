// The command line's load clients: names, weights after a colon, a login's port kept apart from a
// weight, and clear refusals of a bad weight or a host named twice.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { UsageError } from './cli-kit.ts';
import { parseClientRef, parseClientRefs } from './client-refs.ts';

test('a host alone, or with a weight after a colon', () => {
  assert.deepEqual(parseClientRef('lab-client'), { host: 'lab-client' });
  assert.deepEqual(parseClientRef('lab-client:2'), { host: 'lab-client', weight: 2 });
  assert.deepEqual(parseClientRef(' lab-client2:0.5 '), { host: 'lab-client2', weight: 0.5 });
  assert.deepEqual(parseClientRef('local:3'), { host: 'local', weight: 3 });
});

test("a login's port is its port; a weight goes after it", () => {
  assert.deepEqual(parseClientRef('root@10.0.0.2'), { host: 'root@10.0.0.2' });
  assert.deepEqual(parseClientRef('root@10.0.0.2:2222'), { host: 'root@10.0.0.2:2222' });
  assert.deepEqual(parseClientRef('root@10.0.0.2:22:4'), { host: 'root@10.0.0.2:22', weight: 4 });
  assert.deepEqual(parseClientRef('bench@[fd00::2]:22'), { host: 'bench@[fd00::2]:22' });
});

test('a weight of 0 or over 1000 is refused with what to do', () => {
  assert.throws(() => parseClientRef('lab-client:0'), (error: unknown) => error instanceof UsageError && /--client lab-client:0: a weight must be above 0 and at most 1000/.test(error.message));
  assert.throws(() => parseClientRef('lab-client:1001'), UsageError);
});

test('several clients keep their order; a host named twice is refused', () => {
  assert.deepEqual(parseClientRefs(['a', 'b:2']), [{ host: 'a' }, { host: 'b', weight: 2 }]);
  assert.throws(() => parseClientRefs(['a', 'b', 'a:3']), /--client a is given twice: name each client host once/);
});
