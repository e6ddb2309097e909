// "Run again" on a real SQLite file and "This machine" against a real local HTTP server: the
// original's profile starts anew on the same hosts as a new session linked to the original, and a
// session without a profile or without its client host is refused with the reason; a session with
// several clients runs again on them with their weights.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ApiError } from '../../../app/common/errors.ts';
import { LoadProfile } from '../../../app/runs/load-profile.ts';
import { startTestServer, type TestServer } from '../../../agent/agent-harness.ts';
import type { LiveRun } from '../../../app/runs/runs.ts';
import type { RunService } from '../runs/run-service.ts';
import { createServices, type Services } from '../services.ts';
import { SessionRerun } from './session-rerun.ts';

describe('Run again', () => {
  let dir: string;
  let services: Services;
  let server: TestServer;
  let hostId: number;

  const profile = () => ({
    target: `http://127.0.0.1:${server.port}`,
    request: { path: '/hello' },
    load: { model: 'closed', connections: 1, durationS: 30 },
  });

  const refusedWith = (pattern: RegExp) => (error: unknown) => {
    assert.ok(error instanceof ApiError, String(error));
    assert.equal(error.code, 'invalid_args');
    assert.match(error.message, pattern);
    return true;
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'benchlab-rerun-test-'));
    services = createServices({ dataDir: dir, transport: 'cli', version: 'test' });
    server = await startTestServer();
    hostId = services.hostService.addLocal().id;
  });

  after(async () => {
    await services.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('starts the original profile on the same hosts as a new session linked to the original', async () => {
    const original = services.sessions.create({ name: 'baseline', clientHostId: hostId, serverHostId: hostId, config: { profile: profile() }, status: 'completed' });
    const live = await services.rerun.runAgain(original.id);
    try {
      assert.notEqual(live.sessionId, original.id);
      const again = services.sessions.get(live.sessionId);
      assert.equal(again.name, 'baseline (again)');
      assert.equal(again.originSessionId, original.id);
      assert.deepEqual([again.clientHostId, again.serverHostId], [hostId, hostId]);
      assert.deepEqual((again.config.profile as { load: unknown }).load, LoadProfile.parse(profile()).load);
    } finally {
      await services.runs.stop(live.sessionId);
    }
  });

  test('a session with several clients runs again on the same clients with the weights they ran with', async () => {
    const recorded = [
      { index: 0, hostId, hostName: 'This machine', weight: 2, cores: 2, engine: { choice: 'node', kind: 'node', notice: null }, clock: null },
      { index: 1, hostId: hostId + 1, hostName: 'other', weight: 4, cores: 4, engine: { choice: 'node', kind: 'node', notice: null }, clock: null },
    ];
    const original = services.sessions.create({ name: 'two clients', clientHostId: hostId, serverHostId: hostId, config: { profile: profile(), clients: recorded }, status: 'completed' });
    const asked: Array<Parameters<RunService['start']>[0]> = [];
    const rerun = new SessionRerun({
      sessions: services.sessions,
      runs: { start: async (args) => (asked.push(args), { sessionId: original.id + 1 }) as LiveRun },
      library: { linkRerun: () => undefined },
      templates: { deployments: () => [] },
    });
    await rerun.runAgain(original.id);
    assert.deepEqual(asked[0]!.clients, [
      { hostId, weight: 2 },
      { hostId: hostId + 1, weight: 4 },
    ]);
    assert.equal(asked[0]!.clientHostId, undefined);
  });

  test('a session without a load profile is refused', async () => {
    const draft = services.sessions.create({ name: 'no profile', clientHostId: hostId });
    await assert.rejects(services.rerun.runAgain(draft.id), refusedWith(/^“no profile” has no load profile to run again$/));
  });

  test('a session whose client host is gone is refused', async () => {
    const orphan = services.sessions.create({ name: 'orphan', clientHostId: null, config: { profile: profile() } });
    await assert.rejects(services.rerun.runAgain(orphan.id), refusedWith(/^“orphan” has no client host any more$/));
  });

  test('an unknown session is not_found', async () => {
    await assert.rejects(services.rerun.runAgain(4242), { code: 'not_found' });
  });
});
