// Steps relative to a measured capacity, as a reader of the sessions sees them (web mode, real
// Chromium, sessions seeded into the store): Compare says, under each session's load, the capacity
// its steps came from, where and when it was measured and the rates it chose; a session of fixed
// steps says nothing; the replay of the calibrated session says it too.

import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { describeCalibration } from '../../app/runs/calibration-record.ts';
import { RECORDED_CALIBRATION as CALIBRATION } from '../support/calibration-seed.ts';
import type { OpenWebApp } from '../support/open-web-app.ts';
import { openSeededLibrary, SessionsLibrary } from './pages/compare-pages.ts';

let opened: OpenWebApp;
let page: Page;
let library: SessionsLibrary;

before(async () => {
  ({ opened, page, library } = await openSeededLibrary((seeder) => {
    seeder.session({ name: 'Gatling seed — Node sync', templateId: 'node', variant: 'sync', rps: 1200, latencyUs: 3000, seconds: 10, startedAt: new Date('2026-03-01T10:00:00Z'), config: { calibration: CALIBRATION } });
    seeder.session({ name: 'Fixed steps — Node sync', templateId: 'node', variant: 'sync', rps: 1100, latencyUs: 3000, seconds: 10, startedAt: new Date('2026-03-02T10:00:00Z') });
  }));
});

after(async () => {
  await opened?.close();
});

test('Compare and the replay say the capacity a session’s steps came from; a session of fixed steps says none', async () => {
  await library.compare(['Gatling seed — Node sync', 'Fixed steps — Node sync']);
  const said = page.getByTestId('compare-calibration');
  assert.equal(await said.count(), 1, 'only the calibrated session says it');
  assert.equal(await said.innerText(), describeCalibration(CALIBRATION));
  await said.scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(tmpdir(), 'benchlab-capacity-compare.png') });

  await library.open();
  await library.row('Gatling seed — Node sync').getByTestId('session-replay').click();
  const replay = page.getByTestId('replay-calibration');
  await replay.waitFor();
  assert.equal(await replay.innerText(), describeCalibration(CALIBRATION));
  await page.screenshot({ path: join(tmpdir(), 'benchlab-capacity-replay.png') });
  assert.deepEqual(await opened.cspViolations(), []);
});
