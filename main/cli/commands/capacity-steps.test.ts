// Capacity steps as the CLI shows them: `sessions show` of a session whose steps were multiples of a
// measured capacity says which capacity, where and when it was measured, the rates it chose and the
// ramp that found it; a session of fixed steps says none of it.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { RecordedCalibration } from '../../../app/runs/calibration-record.ts';
import { openDatabase } from '../../services/store/database.ts';
import { createSeeder } from '../../../tests/support/session-seed.ts';

const dir = mkdtempSync(join(tmpdir(), 'benchlab-cli-capacity-'));
const dataDir = join(dir, 'data');
after(() => rmSync(dir, { recursive: true, force: true }));

function cli(...args: string[]) {
  const result = spawnSync(process.execPath, [join(import.meta.dirname, '..', 'benchlab.ts'), '--data-dir', dataDir, ...args], {
    encoding: 'utf8',
    env: { ...process.env, HOME: dir, BENCHLAB_DATA_DIR: join(dir, 'never-used') },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const CALIBRATION: RecordedCalibration = {
  reference: { templateId: 'node', variant: 'sync', knobs: {}, label: 'Node.js · sync' },
  measuredAt: '2026-03-01T09:58:00.000Z',
  capacity: 1240,
  atLeast: false,
  times: [1.52, 3.48],
  rates: [1885, 4315],
  probeAnswersPerS: 1300,
  ramp: [
    { rate: 1240, answeredShare: 1, p99Us: 9000, sustained: true },
    { rate: 1300, answeredShare: 0.97, p99Us: 412_000, sustained: false },
  ],
  sessionIds: [7, 8],
};

const ids: Record<string, number> = {};
before(() => {
  const { db } = openDatabase(dataDir);
  const seeder = createSeeder(db);
  ids.calibrated = seeder.session({ name: 'Gatling seed', rps: 1200, latencyUs: 3000, seconds: 3, histogramPool: 2, config: { calibration: CALIBRATION } }).sessionId;
  ids.fixed = seeder.session({ name: 'fixed', rps: 1200, latencyUs: 3000, seconds: 3, histogramPool: 2 }).sessionId;
  db.close();
});

test('sessions show says the capacity the steps came from, and the ramp that found it', () => {
  const shown = cli('sessions', 'show', String(ids.calibrated));
  assert.equal(shown.code, 0, shown.stderr);
  assert.match(shown.stdout, /^steps +steps from a capacity of 1,240 req\/s measured on Node\.js · sync at 09:58 UTC, 1 Mar 2026: ×1\.52 = 1,885 req\/s, ×3\.48 = 4,315 req\/s$/m);
  assert.match(shown.stdout, /^calibration +ramp 1,240 ✓, 1,300 ✗ \(p99 412 ms, 97\.0 % answered\); probe and ramp: sessions 7, 8$/m);
  assert.doesNotMatch(cli('sessions', 'show', String(ids.fixed)).stdout, /capacity|calibration/);
});
