// "Run again" on a real SQLite file and "This machine" against a real local HTTP server: the
// original's profile starts anew on the same hosts as a new session linked to the original, and a
// session without a profile or without its client host is refused with the reason.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ApiError } from '../../../app/common/errors.ts';
import { LoadProfile } from '../../../app/runs/load-profile.ts';
import { startTestServer, type TestServer } from '../../../agent/agent-harness.ts';
import { createServices, type Services } from '../services.ts';

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
