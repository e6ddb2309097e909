// The coordinated start, once per engine: with `startAtMs` the engine gets ready, sends nothing
// before that instant, and counts its seconds from it (the first second ends at startAt + 1000 on
// its own `at`); a start time already past starts at once and says so; one absurdly far ahead is
// refused; a stop while waiting ends the step without a request. Nothing here asserts how fast an
// engine starts — only that it never starts early and that its boundaries are the ones asked for.

import assert from 'node:assert/strict';
import { afterEach, beforeEach, test } from 'node:test';
import type { LoadAgentConfig } from '../../app/runs/agent-protocol.ts';
import { assertBooks, endOf, runAgent, samplesOf, startTestServer, type AgentRun, type TestServer } from '../agent-harness.ts';
import { MAX_START_LEAD_MS } from '../load-coordinator.ts';
import { describeEachEngine } from './engines.ts';

/** Time for the agent (and the native engine) to start before the instant comes; doubled while a busy machine passes it. */
const LEAD_MS = 2500;

function warnings(run: AgentRun): string[] {
  return run.lines.flatMap((line) => (line.type === 'log' && line.level === 'warn' ? [line.message] : []));
}

describeEachEngine('agent: start at a given instant', (engine) => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startTestServer();
  });
  afterEach(() => server.close());

  const config = (startAtMs: number, load: LoadAgentConfig['load'] = { model: 'closed', connections: 2, pipelining: 1, durationS: 1 }): LoadAgentConfig =>
    engine.configure({
      role: 'load',
      target: { protocol: 'http', hostname: '127.0.0.1', port: server.port },
      request: { method: 'GET', path: '/hello', headers: {}, timeoutMs: 5000 },
      load,
      warmupS: 1,
      capS: 30,
      startAtMs,
    });

  for (const load of [
    { model: 'closed', connections: 2, pipelining: 1, durationS: 1 },
    { model: 'open', rate: 200, durationS: 1 },
  ] satisfies LoadAgentConfig['load'][]) {
    test(`${load.model} model: nothing is sent before startAtMs, and the first second ends at startAt + 1000`, async () => {
      // A machine too busy for the agent to be ready within the lead passes the start time, which
      // the agent says in a warning: that is the machine, not the rule, so the lead doubles and
      // the step is tried again on a fresh server.
      for (let lead = LEAD_MS; ; lead *= 2) {
        const startAtMs = Date.now() + lead;
        const run = await runAgent(config(startAtMs, load));
        assert.equal(endOf(run)?.reason, 'completed', run.stderr);
        const passed = warnings(run).some((warning) => warning.startsWith('the start time had passed'));
        if (passed && lead * 2 < MAX_START_LEAD_MS) {
          await server.close();
          server = await startTestServer();
          continue;
        }
        assert.deepEqual(warnings(run), [], 'the start time was kept, not passed');
        const samples = samplesOf(run);
        assert.deepEqual(
          samples.map((sample) => [sample.phase, sample.at]),
          [
            ['warmup', startAtMs + 1000],
            ['measure', startAtMs + 2000],
            ['drain', samples.at(-1)!.at],
          ],
        );
        const first = server.firstRequestAt();
        assert.ok(first !== null, 'the server was sent requests');
        assert.ok(first >= startAtMs, `the first request arrived ${(startAtMs - first).toFixed(3)} ms before the start time`);
        assertBooks(run);
        return;
      }
    });
  }

  test('a start time already past starts at once, with a warning saying by how much', async () => {
    const startAtMs = Date.now() - 5000;
    const sentAt = Date.now();
    const run = await runAgent(config(startAtMs));
    assert.equal(endOf(run)?.reason, 'completed', run.stderr);
    assert.equal(warnings(run).length, 1);
    assert.match(warnings(run)[0]!, /^the start time had passed by \d+\.\d ms when the load was ready on this host: started at once$/);
    const firstAt = samplesOf(run)[0]!.at;
    assert.ok(firstAt >= sentAt + 1000, 'the first second began once the agent was ready, not at the past instant');
    assertBooks(run);
  });

  test('a start time more than the limit ahead is refused: a wrong clock, not a plan', async () => {
    const run = await runAgent(config(Date.now() + MAX_START_LEAD_MS + 60_000));
    assert.equal(endOf(run)?.reason, 'error');
    assert.match(endOf(run)?.message ?? '', /more than 60 s: its clock or the measured clock offset is wrong/);
    assert.equal(samplesOf(run).length, 0);
    assert.equal(server.firstRequestAt(), null);
  });

  test('a stop while waiting for the start time ends the step at once, nothing sent', async () => {
    const startAtMs = Date.now() + 20_000;
    const run = await runAgent(config(startAtMs), { stopWhen: (line) => line.type === 'hello' });
    assert.equal(endOf(run)?.reason, 'stopped', run.stderr);
    assert.ok(run.exitedAt < startAtMs, 'it did not wait for the start time');
    assert.equal(server.firstRequestAt(), null);
    assert.equal(samplesOf(run).filter((sample) => sample.requests > 0 || sample.scheduled > 0).length, 0);
  });
});
