// Server CPU profiles end to end in web mode and real Chromium, over profiles stored by a fixture
// (tests/support/profile-seed.ts): a run's flame graph in its replay (search, zoom, top frames,
// exports), two runs side by side and their differential in Compare, and the PDF's chapter.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { expectAttribute, expectCount, expectText } from '../support/browser.ts';
import type { OpenWebApp } from '../support/open-web-app.ts';
import { pdfPages } from '../support/pdf-layout.ts';
import { ASYNC_PROFILE, SYNC_PROFILE, seedMissingProfile, seedProfile } from '../support/profile-seed.ts';
import { exportPdf, openSeededLibrary, type SessionsLibrary } from './pages/compare-pages.ts';
import { ProfileViewPage } from './pages/flame-graph.ts';

const NO_PERF = 'perf is not installed on the server host: apt install linux-perf';

let opened: OpenWebApp;
let page: Page;
let library: SessionsLibrary;

before(async () => {
  ({ opened, page, library } = await openSeededLibrary((seeder, db) => {
    const sync = seeder.session({ name: 'Node sync', templateId: 'node', variant: 'sync', rps: 900, latencyUs: 5000, seconds: 10, sweep: [10, 100], startedAt: new Date('2026-03-01T10:00:00Z') });
    const async_ = seeder.session({ name: 'Node async', templateId: 'node', variant: 'async', rps: 2400, latencyUs: 1500, seconds: 10, sweep: [10, 100], startedAt: new Date('2026-03-02T10:00:00Z') });
    const apache = seeder.session({ name: 'Apache', templateId: 'apache', rps: 3000, latencyUs: 1000, seconds: 10, startedAt: new Date('2026-03-03T10:00:00Z') });
    for (const runId of sync.runIds) seedProfile(db, runId, SYNC_PROFILE);
    for (const runId of async_.runIds) seedProfile(db, runId, ASYNC_PROFILE);
    seedMissingProfile(db, apache.runIds[0]!, NO_PERF);
  }));
});

after(async () => {
  await opened?.close();
});

test('a run in replay opens as a flame graph: top frames, search, click to zoom, and both exports', async () => {
  await library.row('Node sync').getByTestId('session-replay').click();
  await expectCount(page.getByTestId('run-profiles-entry'), 2);
  assert.deepEqual(await page.getByTestId('run-profiles-entry').evaluateAll((list) => list.map((entry) => entry.getAttribute('data-status'))), ['captured', 'captured']);
  const profile = new ProfileViewPage(page, 'run-profile');
  await expectAttribute(profile.root, 'data-samples', '1000');
  const top = await profile.topFrames();
  assert.deepEqual(top.slice(0, 2), [
    { name: 'binding.read', self: '62.0 %' },
    { name: 'JSON.stringify', self: '12.0 %' },
  ]);
  assert.ok((await profile.frameNames()).includes('fs.readFileSync'));
  await page.getByTestId('run-profiles').scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(tmpdir(), 'benchlab-flame-replay.png') });

  await profile.search('read');
  assert.deepEqual(await profile.litNames(), ['binding.read', 'fs.readFileSync', 'tryReadSync']);
  assert.equal(await profile.searchResult(), '3 frames, 70.0 % of samples');
  assert.ok(await page.locator('[data-testid="run-profile-top-row"].lit').count() > 0, 'the table lights the matching frames too');
  await profile.search('');
  assert.deepEqual(await profile.litNames(), []);

  const before = await profile.width('binding.read');
  assert.ok(Math.abs(before - 0.62) < 0.001);
  await profile.zoom('fs.readFileSync');
  assert.equal(await profile.width('fs.readFileSync'), 1, 'the zoomed frame spans the graph');
  assert.ok(Math.abs((await profile.width('binding.read')) - 620 / 700) < 0.001, 'its children widen in proportion');
  assert.equal(await profile.frame('epoll_wait').count(), 0, 'frames outside the zoomed one are not drawn');
  await profile.resetZoom();
  assert.equal(await profile.width('binding.read'), before);

  const folded = await profile.exportAs('folded');
  assert.match(folded.fileName, /\.folded\.txt$/);
  assert.equal(folded.content.trim(), SYNC_PROFILE.trim());
  const speedscope = await profile.exportAs('speedscope');
  assert.match(speedscope.fileName, /\.speedscope\.json$/);
  const file = JSON.parse(speedscope.content) as { profiles: Array<{ type: string; endValue: number }> };
  assert.deepEqual([file.profiles[0]!.type, file.profiles[0]!.endValue], ['sampled', 1000]);

  await page.getByTestId('replay-close').click();
  assert.deepEqual(await opened.cspViolations(), []);
});

test('Compare: two runs side by side and their differential, runs without a profile named with the reason', async () => {
  for (const name of ['Node sync', 'Node async', 'Apache']) await library.row(name).getByTestId('session-select').check();
  await page.getByTestId('sessions-compare').click();
  await page.getByTestId('comparison').waitFor();
  await expectText(page.getByTestId('compare-profiles-missing'), NO_PERF);
  const a = new ProfileViewPage(page, 'compare-profile-a');
  const b = new ProfileViewPage(page, 'compare-profile-b');
  await expectAttribute(a.root, 'data-samples', '1000');
  await expectAttribute(b.root, 'data-samples', '1300');
  assert.equal((await a.topFrames())[0]!.name, 'binding.read');
  assert.equal((await b.topFrames())[0]!.name, 'epoll_wait');

  const diff = new ProfileViewPage(page, 'compare-profile-diff');
  const up = page.getByTestId('compare-profile-diff-up-row');
  const down = page.getByTestId('compare-profile-diff-down-row');
  await up.first().waitFor();
  // Each run as 100 %: epoll_wait 6 % → 53.8 %, binding.read 62 % → 11.5 %.
  assert.equal(await up.first().getAttribute('data-name'), 'epoll_wait');
  assert.equal((await up.first().getByTestId('compare-profile-diff-up-delta').innerText()).trim(), '+47.8 pts');
  assert.equal(await down.first().getAttribute('data-name'), 'binding.read');
  assert.equal((await down.first().getByTestId('compare-profile-diff-down-delta').innerText()).trim(), '−50.5 pts');
  assert.ok((await diff.frameNames()).includes('tryStatSync'), 'a stack gone in the after run stays in the differential');
  assert.ok((await diff.frameNames()).includes('afterReadFile'), 'so does a new one');
  await page.getByTestId('compare-profiles').scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(tmpdir(), 'benchlab-flame-compare.png') });

  // Against another run with the same profile, nothing moved.
  const syncRuns = await page.getByTestId('compare-profiles-after').locator('option').evaluateAll((options) => options.filter((option) => option.textContent?.includes('Node sync')).map((option) => option.getAttribute('value') ?? ''));
  await page.getByTestId('compare-profiles-after').selectOption(syncRuns[1]!);
  await expectAttribute(b.root, 'data-samples', '1000');
  await expectCount(up, 0);
  await expectCount(down, 0);
  assert.deepEqual(await opened.cspViolations(), []);
});

test('the PDF holds each configuration top frames and flame graph, and says why one has none', async () => {
  await page.getByTestId('comparison').waitFor();
  const pdf = await exportPdf(page);
  const text = pdfPages(pdf.downloaded).join('\n');
  for (const expected of ['Server CPU profiles', 'Top frames by self time', `No profile: ${NO_PERF}`]) assert.ok(text.includes(expected), `the PDF holds ${expected}`);
  // Each configuration with its own profile: sync's time in binding.read, async's in epoll_wait.
  const chapterText = text.slice(text.indexOf('Server CPU profiles'));
  const section = (from: string, to: string) => chapterText.slice(chapterText.indexOf(from), chapterText.indexOf(to));
  const sync = section('A · Node sync', 'B · Node async');
  const async_ = section('B · Node async', 'C · Apache');
  assert.match(sync, /binding\.read\s+62\.0 %/);
  assert.match(async_, /epoll_wait\s+53\.8 %/);
  assert.ok(!async_.includes('tryReadSync'), 'not the other configuration\'s frames');
  const chapter = pdfPages(pdf.downloaded).findIndex((pageText) => pageText.includes('Server CPU profiles'));
  execFileSync('pdftoppm', ['-png', '-r', '60', '-f', String(chapter + 1), '-l', String(chapter + 1), pdf.downloaded, join(tmpdir(), 'benchlab-flame-pdf')]);
});
