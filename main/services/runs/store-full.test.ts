// A full data disk mid-run, as SQLite reports it (SQLITE_FULL: the store is capped at its size with
// `PRAGMA max_page_count` once a second is charted), in a back end in a child process on "This
// machine" against a real local HTTP server: the process does not crash, the load stops at once,
// runs.live ends the run as failed naming the full disk and the last stored second, and what was
// stored is kept, its books balanced.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clockTime } from '../../../app/common/clock-time.ts';
import { childRunSetup, spawnChildRun } from '../../../tests/support/child-back-end.ts';
import { checkStore } from '../../../tests/soak/store-check.ts';
import { until, within } from '../../../tests/support/until.ts';

const setup = childRunSetup('benchlab-store-full-');

test('a store that fills up mid-run ends the run as failed with the disk named, stops the load and keeps what was stored', async () => {
  const run = spawnChildRun(setup.dir, {
    exitWhenDone: true,
    storeFullAfter: 2,
    profile: { target: `http://127.0.0.1:${setup.server.port}`, request: { path: '/hello' }, load: { model: 'closed', connections: 2, durationS: 60 }, warmupS: 0 },
  });
  try {
    await run.measured(2);
    // Well inside the run's 60 s: the disk-full end stops it, the window does not.
    const exit = await within(run.exited, 'the back end to end its run', 30_000);
    assert.deepEqual([exit.code, exit.signal], [0, null], `the back end crashed:\n${run.stderr()}`);
    const last = run.states.at(-1)!;
    assert.equal(last.status, 'failed');
    assert.ok(run.states.some((state) => state.status === 'stopping' && state.message === last.message), 'the load is stopped as Stop does, saying why');
    await until(async () => (await setup.server.openConnections()) === 0, 'the agent’s connections to close', 5000);

    const store = await checkStore(setup.dir, run.sessionId());
    assert.equal(store.integrityOk, true);
    assert.ok(store.storedAts.length >= 2, `the seconds stored before the disk filled are kept (${store.storedAts.length})`);
    assert.deepEqual(store.booksProblems, [], 'their books balance');
    assert.notEqual(store.sessionStatus, 'running');
    assert.equal(last.message, `the data disk is full (${setup.dir}): stored up to ${clockTime(Math.max(...store.storedAts))}; free space and start again`);
  } finally {
    run.child.kill('SIGKILL');
  }
});
