// The server under test changing under a run, as the sampler's pids tell it: the first pid is the
// run's server; none or another after it is the change, said once, in words that say when and what.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeServerChange, ServerPidWatch } from './server-change.ts';

test('the first pid seen is the server; the same pid is no change; none or another after it is, once', () => {
  const stopped = new ServerPidWatch();
  assert.equal(stopped.seen(null, 0.5), null, 'not found yet');
  assert.equal(stopped.seen(null, 1), null);
  // The baseline is the first pid found, even late.
  const late = new ServerPidWatch();
  assert.equal(late.seen(null, 1), null);
  assert.equal(late.seen(4242, 2), null);
  assert.equal(late.seen(4242, 3), null);
  assert.deepEqual(late.seen(null, 4.2), { atS: 4.2, before: 4242, after: null });
  assert.equal(late.seen(5151, 5), null, 'said once');

  const replaced = new ServerPidWatch();
  replaced.seen(100, 1);
  assert.deepEqual(replaced.seen(200, 6.5), { atS: 6.5, before: 100, after: 200 });

  // Taken down by this Benchlab: said at once, and the sampler's later word is not a second change.
  const ours = new ServerPidWatch();
  ours.seen(100, 1);
  assert.deepEqual(ours.takenDown(2.5, 'stopped by this Benchlab'), { atS: 2.5, before: 100, after: null, by: 'stopped by this Benchlab' });
  assert.equal(ours.seen(null, 3), null);
  assert.equal(ours.takenDown(4, 'again'), null);
});

test('the words say what changed, when, and what runs there now', () => {
  const server = { hostName: 'lab-server', label: 'node · async', port: 18300 };
  assert.equal(
    describeServerChange({ atS: 6.25, before: 100, after: null }, server, "nothing of Benchlab's runs on lab-server now"),
    "the server under test, node · async, stopped (pid 100 ended; nothing listens on port 18300) at 6.3 s; nothing of Benchlab's runs on lab-server now. The load was stopped: what follows would not be node · async's",
  );
  assert.match(describeServerChange({ atS: 3, before: 100, after: 200 }, server, null), /^the server under test, node · async, was replaced \(pid 100 ended; pid 200 listens on port 18300\) at 3\.0 s\. /);
  assert.match(describeServerChange({ atS: 3, before: 100, after: null, by: 'stopped by this Benchlab' }, server, null), /^the server under test, node · async, was stopped by this Benchlab at 3\.0 s\. The load was stopped/);
});
