// Capacity steps as the CLI shows them: `sessions show` of a session whose steps were multiples of a
// measured capacity says which capacity, where and when it was measured, the rates it chose and the
// ramp that found it; a session of fixed steps says none of it.

import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { RECORDED_CALIBRATION } from '../../../tests/support/calibration-seed.ts';
import { seedStore } from '../../../tests/support/session-seed.ts';
import { storeCli } from '../../../tests/support/cli-process.ts';

const { dataDir, cli } = storeCli('benchlab-cli-capacity-');

const ids: Record<string, number> = {};
before(() =>
  seedStore(dataDir, (seeder) => {
    ids.calibrated = seeder.session({ name: 'Gatling seed', rps: 1200, latencyUs: 3000, seconds: 3, histogramPool: 2, config: { calibration: RECORDED_CALIBRATION } }).sessionId;
    ids.fixed = seeder.session({ name: 'fixed', rps: 1200, latencyUs: 3000, seconds: 3, histogramPool: 2 }).sessionId;
  }),
);

test('sessions show says the capacity the steps came from, and the ramp that found it', () => {
  const shown = cli('sessions', 'show', String(ids.calibrated));
  assert.equal(shown.code, 0, shown.stderr);
  assert.match(shown.stdout, /^steps +steps from a capacity of 1,240 req\/s measured on Node\.js · sync at 09:58 UTC, 1 Mar 2026: ×1\.52 = 1,885 req\/s, ×3\.48 = 4,315 req\/s$/m);
  assert.match(shown.stdout, /^calibration +ramp 1,170 ✓, 1,240 ✓, 1,300 ✗ \(p99 412 ms, 97\.0 % answered\); probe and ramp: sessions 7, 8$/m);
  assert.doesNotMatch(cli('sessions', 'show', String(ids.fixed)).stdout, /capacity|calibration/);
});
