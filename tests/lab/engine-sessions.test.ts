// A whole session on each load engine, on the lab: the Node template deployed on bl-server, the
// load driven from bl-client by the native engine (its binary uploaded beside the agent under its
// hash) and by the Node engine. Each session records the engine that ran, its books balance, and its
// numbers are real (requests answered, every stored second's histogram decodes to its answers).
// Also auto's fallback with its notice when this Benchlab has no binary, and a forced native engine
// refused before anything starts against an https target.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { decodeHistogram } from '../../app/common/hdr.ts';
import type { LoadEngineKind } from '../../app/runs/agent-protocol.ts';
import { type EngineChoice } from '../../app/runs/engine-choice.ts';
import type { ReplayData } from '../../app/sessions/replay.ts';
import type { Session } from '../../app/sessions/sessions.ts';
import type { LiveRun, StoredRun } from '../../app/runs/runs.ts';
import { SamplesRepository } from '../../main/services/runs/samples-repository.ts';
import { engineLab } from '../support/lab-backend.ts';
import { labSkipReason } from '../support/lab-hosts.ts';
import { labExec } from './lab.ts';

const skip = labSkipReason();
const INSTANCE = 'engines';
const PORT = 18495;
const AGENT_DIR = '/var/lib/benchlab/agent';

describe('a whole session on each load engine', { skip: skip ?? false }, () => {
  const suite = engineLab(INSTANCE, 'benchlab-engines-lab-', PORT);

  /** Runs a short closed session with `engine` and returns it once over, with its stored run. */
  async function session(engine: EngineChoice, profile: Record<string, unknown> = {}): Promise<{ live: LiveRun; stored: StoredRun; session: Session; log: string[] }> {
    const log: string[] = [];
    const unsubscribe = suite.lab.services.bus.subscribe('log', (line) => log.push(line.message));
    const started = await suite.lab.ok<LiveRun>('runs.start', {
      clientHostId: suite.lab.clientId,
      serverHostId: suite.lab.serverId,
      profile: { target: suite.target, request: { path: '/hello' }, load: { model: 'closed', connections: 4, durationS: 3 }, warmupS: 1, ...profile },
      engine,
    });
    const live = await suite.lab.services.runs.finished(started.sessionId);
    unsubscribe();
    assert.equal(live.status, 'completed', live.message ?? '');
    const [stored] = await suite.lab.ok<StoredRun[]>('runs.list', { sessionId: started.sessionId });
    return { live, stored: stored!, session: await suite.lab.ok<Session>('sessions.get', { id: started.sessionId }), log };
  }

  /** What every engine's session must show: the engine recorded, balanced books, real numbers. */
  async function assertRealSession(result: Awaited<ReturnType<typeof session>>, kind: LoadEngineKind): Promise<void> {
    const { live, stored } = result;
    assert.equal(live.engine?.kind, kind);
    assert.deepEqual(result.session.config.engine, live.engine, 'the session records the engine that ran');
    assert.deepEqual(
      result.log.filter((line) => /the agent runs the/.test(line)),
      [],
      'the agent said in its hello that it runs the engine asked for',
    );
    assert.deepEqual((await suite.lab.ok<ReplayData>('replay.load', { sessionId: live.sessionId })).run.engine, live.engine, 'replay shows it');

    const summary = stored.summary!;
    assert.ok(summary.requests > 0, `${summary.requests} requests`);
    assert.equal(summary.failed, 0);
    const books = summary.books!;
    assert.ok(books.balanced, JSON.stringify(books));
    assert.equal(books.inFlight, 0);
    assert.equal(books.scheduled, books.answered + books.errors + books.timeouts + books.notSent);
    const [p50, p99] = [summary.p50Us ?? 0, summary.p99Us ?? 0];
    assert.ok(p50 > 0 && p50 <= p99, `p50 ${p50} µs, p99 ${p99} µs`);

    const measured = new SamplesRepository(suite.lab.services.db).forRun(stored.id).filter((second) => second.phase === 'measure');
    assert.equal(measured.length, 3);
    for (const second of measured) {
      assert.ok(second.requests > 0, `second ${second.second}: no requests`);
      // Every answer of the second is in its histogram, which app/common/hdr.ts decodes.
      const histogram = decodeHistogram(second.histogram!);
      assert.equal(histogram.totalCount, second.requests, `second ${second.second}: histogram count`);
      assert.ok(histogram.maxValue >= (second.p99Us ?? 0) * 0.99);
      assert.ok((second.clientMetrics?.loadThreads ?? 0) >= 1, 'the engine said how many load threads it ran');
    }
  }

  test('the native engine: uploaded beside the agent under its hash, a real session recorded as native', async (t) => {
    const native = suite.nativeEngine(t);
    if (native === null) return;
    const result = await session('native');
    await assertRealSession(result, 'native');
    assert.equal(result.live.engine?.notice, null);
    const hash12 = createHash('sha256').update(readFileSync(native.file)).digest('hex').slice(0, 12);
    const listed = await labExec('client', ['sh', '-c', `ls -l ${AGENT_DIR}/benchlab-engine-${hash12}`], { instance: INSTANCE });
    assert.match(listed.stdout, /^-rwx/, `the binary is executable on the client: ${listed.stdout}${listed.stderr}`);
  });

  test('the Node engine: a real session recorded as node', async () => {
    await assertRealSession(await session('node'), 'node');
  });

  test('auto without a binary falls back to the Node engine with one notice line', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'benchlab-no-engine-'));
    process.env.BENCHLAB_ENGINE_DIR = empty;
    try {
      const result = await session('auto', { load: { model: 'closed', connections: 2, durationS: 1 }, warmupS: 0 });
      assert.equal(result.live.engine?.kind, 'node');
      assert.equal(result.live.engine?.choice, 'auto');
      assert.match(result.live.engine?.notice ?? '', /^native engine unavailable on lab-client: this Benchlab has no native engine for linux\/\w+ \(.*\); using the Node engine$/);
      assert.deepEqual(result.session.config.engine, result.live.engine);
      assert.equal(result.log.filter((line) => line.includes(result.live.engine!.notice!)).length, 1, 'one notice line in the log');
      assert.ok(result.stored.summary!.requests > 0);
    } finally {
      delete process.env.BENCHLAB_ENGINE_DIR;
      rmSync(empty, { recursive: true, force: true });
    }
  });

  test('a forced native engine that cannot run is refused before anything starts', async () => {
    const before = (await suite.lab.ok<unknown[]>('sessions.list', {})).length;
    const refused = await suite.lab.call('runs.start', {
      clientHostId: suite.lab.clientId,
      profile: { target: suite.target.replace(/^http:/, 'https:'), request: { path: '/hello' }, load: { model: 'closed', connections: 1, durationS: 1 } },
      engine: 'native',
    });
    assert.equal(refused.ok, false);
    assert.equal(
      refused.ok ? '' : refused.error.message,
      'the native engine is unavailable on lab-client: the target is https, which the native engine does not speak; choose the engine auto or node',
    );
    assert.equal((await suite.lab.ok<unknown[]>('sessions.list', {})).length, before, 'no session was stored');
  });
});
