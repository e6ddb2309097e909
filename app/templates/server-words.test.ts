// The words for a server on a host that a plan holds: said in place of a question the hold would refuse.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeHostHeld } from './server-words.ts';

test('a held host names the plan holding it and what can follow once it has ended', () => {
  assert.equal(
    describeHostHeld('plan "Overnight" of the benchlab CLI (pid 7 on ci) (since 08:00)', 'Go (std) on port 9090 can be deployed'),
    'The host is held by plan "Overnight" of the benchlab CLI (pid 7 on ci) (since 08:00): Go (std) on port 9090 can be deployed once that plan has ended',
  );
});
