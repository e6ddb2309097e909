// The one live-run builder: a starting session's steps are pending and empty, a replayed step says
// what was stored, and stored statuses read on the dashboard as the live run ended them.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LoadProfile } from './load-profile.ts';
import { liveRunOf, liveStatusOf, liveStepOf, liveStepStatusOf } from './live-run.ts';

const profile = LoadProfile.parse({ target: 'http://127.0.0.1:8080', request: { path: '/' }, load: { model: 'closed', connections: 4, durationS: 5 } });

test('a live run starts with no current step, no silence, and its latency said for its model', () => {
  const run = liveRunOf({ sessionId: 1, name: 's', status: 'starting', clientHostId: 2, clients: [], serverHostId: null, profile, steps: [liveStepOf({ index: 0, label: '4 conns', targetRate: null })], message: null, startedAt: 'x', endedAt: null, engine: null });
  assert.equal(run.currentStep, null);
  assert.deepEqual(run.silentSince, { client: null, server: null });
  assert.ok(run.latencyMeaning.length > 0);
  assert.equal('calibration' in run, false);
  assert.deepEqual([run.steps[0]!.status, run.steps[0]!.runId, run.steps[0]!.clientVerdicts, run.steps[0]!.degraded], ['pending', null, [], null]);
  assert.equal(liveRunOf({ ...run, calibration: null }).calibration, null, 'a replay says it has none');
});

test('stored statuses on the dashboard: what was cut off reads as stopped, an unfinished session as cancelled', () => {
  assert.deepEqual(['completed', 'failed', 'pending', 'running', 'stopped', 'interrupted'].map(liveStepStatusOf), ['completed', 'failed', 'pending', 'stopped', 'stopped', 'stopped']);
  assert.deepEqual(['completed', 'failed', 'cancelled', 'interrupted', 'running'].map(liveStatusOf), ['completed', 'failed', 'cancelled', 'cancelled', 'cancelled']);
});
