// kill -9 of Benchlab mid-run (a real back end in a child process, "This machine" as client): the
// agent notices at once (its stdin closes) and stops its load within 5 s; the store keeps every
// second written before the kill (at most the last one is lost); the next start marks the session
// interrupted and summarizes the stored seconds.

import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { homedir, hostname } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { afterNextStart, childRunSetup, spawnChildRun } from '../../../tests/support/child-back-end.ts';
import { until } from '../../../tests/support/until.ts';
import { agentOwner } from './run-service.ts';
import { agentPidFileName } from './agent-host.ts';
import { SamplesRepository } from './samples-repository.ts';

const setup = childRunSetup('benchlab-kill-test-');

/** The pid in the load agent's pid file, where the run service has it written on This machine. */
function localAgentPid(sessionId: number): number | null {
  const root = process.getuid?.() === 0 ? '/var/lib/benchlab' : join(homedir(), '.benchlab');
  const file = join(root, 'agent', 'pids', hostname().replace(/[^A-Za-z0-9._-]/g, '_'), agentPidFileName(agentOwner(join(setup.dir, 'benchlab.db')), sessionId, 'load'));
  return existsSync(file) ? Number(readFileSync(file, 'utf8').trim()) : null;
}

/** A process that runs (a zombie waiting for its parent to reap it runs no more). */
function alive(pid: number): boolean {
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

test('kill -9 of Benchlab stops the load within 5 s and loses at most the last second', async (t) => {
  const profile = { target: `http://127.0.0.1:${setup.server.port}`, request: { path: '/x' }, load: { model: 'closed', connections: 2, durationS: 60 } };
  const run = spawnChildRun(setup.dir, { profile });
  await run.measured(3, 60_000);
  const sessionId = run.sessionId();
  const agent = localAgentPid(sessionId);
  assert.ok(agent !== null && alive(agent), 'the load agent runs');
  run.child.kill('SIGKILL');
  const killedAt = Date.now();
  await run.exited;
  const measured = run.points.filter((point) => !point.warmup).length;
  // The bound of the wait is the promise: the agent ends within 5 s (how soon: npm run bench).
  await until(() => !alive(agent), 'the agent to end', 5000);
  t.diagnostic(`the agent ended ${Date.now() - killedAt} ms after the kill, its last request ${setup.server.lastRequestAt() - killedAt} ms after it`);

  await afterNextStart(setup.dir, sessionId, ({ services, run }) => {
    const stored = new SamplesRepository(services.db).forRun(run.id).length;
    // The child had charted `measured` seconds, each stored before it was charted; one more may have been on its way.
    assert.ok(stored >= measured && stored <= measured + 1, `stored ${stored}, charted ${measured}`);
    assert.ok(run.summary && run.summary.requests > 0, 'a summary of the stored seconds');
  });
});
