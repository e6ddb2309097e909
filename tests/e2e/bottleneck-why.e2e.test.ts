// Why the server limited a run, end to end in web mode and real Chromium: a stored run whose requests
// timed out (server-bound) and whose CPU profile spent 62 % of its samples in one frame. Replay's
// banner, Compare's and the PDF name that frame as the cause, with its share; the run beside it,
// with no profile, says nothing of the kind.

import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { expectText } from '../support/browser.ts';
import type { OpenWebApp } from '../support/open-web-app.ts';
import { pdfPages } from '../support/pdf-layout.ts';
import { SYNC_PROFILE, seedProfile } from '../support/profile-seed.ts';
import { exportPdf, openSeededLibrary, type SessionsLibrary } from './pages/compare-pages.ts';

const CAUSE = /The server is the bottleneck \(most of its CPU time went to binding\.read\)/;
const HOTSPOT = /the CPU profile \(v8\) found most of the server's samples in one frame: binding\.read, 62 % of 1,000 samples/;

let opened: OpenWebApp;
let page: Page;
let library: SessionsLibrary;

before(async () => {
  ({ opened, page, library } = await openSeededLibrary((seeder, db) => {
    const hot = seeder.session({ name: 'Node sync, timing out', templateId: 'node', variant: 'sync', rps: 300, latencyUs: 20_000, seconds: 10, stepLoad: [{ timeoutShare: 0.2 }], startedAt: new Date('2026-03-01T10:00:00Z') });
    seeder.session({ name: 'Node sync, unprofiled', templateId: 'node', variant: 'sync', rps: 300, latencyUs: 20_000, seconds: 10, stepLoad: [{ timeoutShare: 0.2 }], startedAt: new Date('2026-03-02T10:00:00Z') });
    seedProfile(db, hot.runIds[0]!, SYNC_PROFILE);
  }));
});

after(async () => {
  await opened?.close();
});

test("replay's banner names the profile's hottest frame as the cause, with its share", async () => {
  await library.row('Node sync, timing out').getByTestId('session-replay').click();
  const banner = page.getByTestId('bottleneck');
  await expectText(banner.locator('strong'), CAUSE);
  await expectText(banner.locator('li[data-kind="profile-hotspot"]'), HOTSPOT);
  await banner.scrollIntoViewIfNeeded();
  await banner.screenshot({ path: join(tmpdir(), 'benchlab-bottleneck-why-replay.png') });
  await page.getByTestId('replay-close').click();
});

test('Compare and its PDF say the same for the profiled run, and nothing of a frame for the other', async () => {
  for (const name of ['Node sync, timing out', 'Node sync, unprofiled']) await library.row(name).getByTestId('session-select').check();
  await page.getByTestId('sessions-compare').click();
  await page.getByTestId('comparison').waitFor();
  const steps = page.getByTestId('comparison').getByTestId('bottleneck-step');
  await expectText(steps.locator('li[data-kind="profile-hotspot"]'), HOTSPOT);
  assert.equal(await steps.locator('li[data-kind="profile-hotspot"]').count(), 1, 'only the profiled run names a frame');
  assert.equal(await steps.locator('li[data-kind="timeouts"]').count(), 2, 'both runs are server-bound on their timeouts');

  const text = pdfPages((await exportPdf(page)).downloaded).join('\n').replace(/\s+/g, ' ');
  assert.match(text, /Bottleneck, Node sync, timing out: The server is the bottleneck \(most of its CPU time went to binding\.read\)/);
  assert.match(text, /binding\.read, 62 % of 1,000 samples/);
  assert.deepEqual(await opened.cspViolations(), []);
});
