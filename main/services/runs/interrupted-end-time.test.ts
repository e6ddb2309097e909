// When a killed Benchlab's session ended (a real back end in a child process, "This machine" as
// client, kill -9 mid-run): the next start marks it interrupted with the end time of its last
// stored second, for the run and the session alike, never the time of the recovery.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { afterNextStart, childRunSetup, spawnChildRun } from '../../../tests/support/child-back-end.ts';
import { SamplesRepository } from './samples-repository.ts';

const setup = childRunSetup('benchlab-end-time-');

/** Starts a session in a child back end and kills it -9 once it has charted (so stored) `seconds` measured seconds. */
async function killMidRun(seconds: number): Promise<number> {
  const profile = { target: `http://127.0.0.1:${setup.server.port}`, request: { path: '/x' }, load: { model: 'closed', connections: 2, durationS: 60 } };
  const run = spawnChildRun(setup.dir, { profile });
  try {
    await run.measured(seconds, 60_000);
    return run.sessionId();
  } finally {
    run.child.kill('SIGKILL');
    await run.exited;
  }
}

test('an interrupted session ends when its last stored second did, not when Benchlab restarted', async () => {
  const sessionId = await killMidRun(3);
  const beforeRecovery = new Date().toISOString();
  await afterNextStart(setup.dir, sessionId, ({ services, session, run }) => {
    const stored = new SamplesRepository(services.db).forRun(run.id);
    assert.ok(stored.length >= 3, `stored ${stored.length} seconds`);
    const lastAt = Math.max(...stored.map((second) => second.clientMetrics?.at ?? 0));
    assert.ok(lastAt > 0, 'the stored seconds carry their time');
    const lastSecondEnded = new Date(lastAt).toISOString();
    assert.equal(run.endedAt, lastSecondEnded, 'the run ends with its last stored second');
    assert.equal(session.endedAt, lastSecondEnded, "the session ends with its last run's last stored second");
    assert.ok(session.endedAt! < beforeRecovery, 'before the recovery');
  });
});
