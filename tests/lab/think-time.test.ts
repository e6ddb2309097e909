// Think time on the lab, on both load engines: the Node template deployed on bl7-server, loaded
// from bl7-client with and without a pause per connection. The session keeps the think time in
// its profile and its step's words; with the pause fewer requests are sent, never more than one
// per pause per connection, the books balance, and the pause is in no latency (the median answer
// is far below it). Relations only, between the two sessions and with the configured pause.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { LoadEngineKind } from '../../app/runs/agent-protocol.ts';
import type { LiveRun, StoredRun } from '../../app/runs/runs.ts';
import type { Session } from '../../app/sessions/sessions.ts';
import { engineLab } from '../support/lab-backend.ts';
import { labSkipReason } from '../support/lab-hosts.ts';

const skip = labSkipReason();
const INSTANCE = 'think';
const PORT = 18497;
const CONNECTIONS = 8;
const DURATION_S = 3;
const PAUSE_MS = 100;

describe('think time on the lab, on each load engine', { skip: skip ?? false }, () => {
  const suite = engineLab(INSTANCE, 'benchlab-think-lab-', PORT);

  async function session(engine: LoadEngineKind, thinkTime?: Record<string, unknown>): Promise<{ stored: StoredRun; session: Session }> {
    const load = { model: 'closed', connections: CONNECTIONS, durationS: DURATION_S, ...(thinkTime ? { thinkTime } : {}) };
    const started = await suite.lab.ok<LiveRun>('runs.start', {
      clientHostId: suite.lab.clientId,
      serverHostId: suite.lab.serverId,
      profile: { target: suite.target, request: { path: '/hello' }, load },
      engine,
    });
    const live = await suite.lab.services.runs.finished(started.sessionId);
    assert.equal(live.status, 'completed', live.message ?? '');
    assert.equal(live.engine?.kind, engine);
    const [stored] = await suite.lab.ok<StoredRun[]>('runs.list', { sessionId: started.sessionId });
    return { stored: stored!, session: await suite.lab.ok<Session>('sessions.get', { id: started.sessionId }) };
  }

  for (const engine of ['native', 'node'] as const) {
    test(`the ${engine} engine: a pause of ${PAUSE_MS} ms per connection bounds the rate and stays out of the latency`, async (t) => {
      if (engine === 'native' && suite.nativeEngine(t) === null) return;
      const none = await session(engine);
      const paused = await session(engine, { kind: 'fixed', ms: PAUSE_MS });
      const [a, b] = [none.stored.summary!, paused.stored.summary!];
      const shown = `without: ${a.requests} answers, p50 ${a.p50Us} µs; with: ${b.requests} answers, p50 ${b.p50Us} µs`;
      t.diagnostic(shown);
      assert.deepEqual((paused.session.config.profile as { load: { thinkTime?: unknown } }).load.thinkTime, { kind: 'fixed', ms: PAUSE_MS });
      assert.match(String(paused.stored.step.label), new RegExp(`^c=${CONNECTIONS}, ${DURATION_S} s, think ${PAUSE_MS} ms$`));
      for (const summary of [a, b]) {
        assert.ok(summary.books?.balanced, JSON.stringify(summary.books));
        assert.equal(summary.failed, 0, shown);
      }
      assert.ok(b.requests > 0 && b.requests < a.requests, `the pause sends fewer: ${shown}`);
      assert.ok(b.requests <= CONNECTIONS * (Math.floor((DURATION_S * 1000) / PAUSE_MS) + 1), `at most one per pause per connection: ${shown}`);
      assert.ok((b.p50Us ?? 0) > 0 && (b.p50Us ?? 0) < PAUSE_MS * 1000, `the pause is not in the latency: ${shown}`);
    });
  }
});
