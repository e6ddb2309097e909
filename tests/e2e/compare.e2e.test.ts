// The sessions library, the Compare page, the PDF export and replay end to end in web mode and real
// Chromium, over sessions seeded into the data dir's real SQLite file through the repositories.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { openDatabase } from '../../main/services/store/database.ts';
import { expectAttribute, expectCount } from '../support/browser.ts';
import { createSeeder } from '../support/session-seed.ts';
import { openWebApp, type OpenWebApp } from '../support/open-web-app.ts';
import { ComparePage, SessionsLibrary } from './pages/compare-pages.ts';

let opened: OpenWebApp | undefined;
let page: Page;
let library: SessionsLibrary;
const dataDir = mkdtempSync(join(tmpdir(), 'benchlab-e2e-compare-'));

before(async () => {
  const { db } = openDatabase(dataDir);
  const seeder = createSeeder(db);
  seeder.session({ name: 'Tomcat BIO', templateId: 'tomcat', variant: 'bio', rps: 1100, latencyUs: 4000, seconds: 30, sweep: [10, 100], tags: ['jvm'], startedAt: new Date('2026-03-01T10:00:00Z') });
  seeder.session({ name: 'Vert.x event loop', templateId: 'vertx', rps: 3300, latencyUs: 900, seconds: 30, sweep: [10, 100], tags: ['jvm'], startedAt: new Date('2026-03-05T10:00:00Z'), serverInfo: { cpuCores: 4 } });
  seeder.session({ name: 'Node hello', templateId: 'node', rps: 2000, latencyUs: 1500, seconds: 10, startedAt: new Date('2026-03-09T10:00:00Z') });
  db.close();
  opened = await openWebApp({ dataDir });
  page = opened.page;
  library = new SessionsLibrary(page);
  await library.open();
});

after(async () => {
  await opened?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

test('library: filter by text, template, tag and date; notes and tags; duplicate; delete with confirmation', async () => {
  await page.getByTestId('session-row').nth(2).waitFor();
  assert.deepEqual(await library.names(), ['Node hello', 'Vert.x event loop', 'Tomcat BIO']);
  await library.search('vert');
  assert.deepEqual(await library.names(), ['Vert.x event loop']);
  await library.search('');
  await page.getByTestId('sessions-filter-template').selectOption('tomcat');
  assert.deepEqual(await library.names(), ['Tomcat BIO']);
  await page.getByTestId('sessions-filter-template').selectOption('');
  await page.getByTestId('sessions-filter-tag').selectOption('jvm');
  assert.deepEqual(await library.names(), ['Vert.x event loop', 'Tomcat BIO']);
  await page.getByTestId('sessions-filter-from').fill('2026-03-04');
  assert.deepEqual(await library.names(), ['Vert.x event loop']);
  await page.getByTestId('sessions-filter-from').fill('');
  await page.getByTestId('sessions-filter-tag').selectOption('');

  const node = library.row('Node hello');
  await node.getByTestId('session-details-toggle').click();
  await page.getByTestId('session-notes').fill('baseline on the lab');
  await page.getByTestId('session-tags').fill('node, hello');
  await page.getByTestId('session-save').click();
  await node.getByTestId('session-tag-list').filter({ hasText: 'node, hello' }).waitFor();
  await library.search('baseline');
  assert.deepEqual(await library.names(), ['Node hello']);
  await library.search('');

  await library.row('Node hello').getByTestId('session-duplicate').click();
  await library.row('Node hello (copy)').waitFor();
  const copy = library.row('Node hello (copy)');
  assert.match(await copy.innerText(), /draft/);
  await copy.getByTestId('session-delete').click();
  await copy.getByTestId('session-delete-confirm').click();
  await copy.waitFor({ state: 'detached' });
  assert.equal(await page.getByTestId('session-row').count(), 3);
});

test('compare two sweeps: best values marked, host warning, charts, and a PDF with both sessions', async () => {
  await library.row('Tomcat BIO').getByTestId('session-select').check();
  await library.row('Vert.x event loop').getByTestId('session-select').check();
  await page.getByTestId('sessions-compare').click();
  await page.getByTestId('comparison').waitFor();
  const compare = new ComparePage(page);
  const rps = await compare.column('c=10, 30 s', 'rps');
  assert.equal(rps.length, 2);
  assert.deepEqual(rps.map((cell) => cell.best), [false, true]);
  const p99 = await compare.column('c=100, 30 s', 'p99');
  assert.deepEqual(p99.map((cell) => cell.best), [false, true]);
  assert.match(await page.getByTestId('compare-warning').first().innerText(), /Not comparable: the server hosts differ in cores/);
  assert.equal(await page.getByTestId('compare-chart-rps').getAttribute('data-series'), '2');
  assert.equal(await page.getByTestId('compare-chart-distribution').getAttribute('data-series'), '2');

  // A reload keeps the selection and reopens the comparison.
  await page.reload();
  await page.getByTestId('comparison').waitFor();

  await page.getByTestId('compare-title').fill('Tomcat BIO vs Vert.x');
  await page.getByTestId('compare-notes').fill('Seeded for the e2e test.');
  await page.getByTestId('compare-export').click();
  const file = await page.getByTestId('compare-pdf-file').innerText({ timeout: 30_000 });
  assert.ok(existsSync(file));
  const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  for (const expected of ['Tomcat BIO vs Vert.x', 'Tomcat BIO', 'Vert.x event loop', 'Seeded for the e2e test.', rps[1]!.value]) {
    assert.ok(text.includes(expected), `the PDF holds ${expected}`);
  }
});

test('compare chosen steps: a step left out of one session leaves only the other in that step', async () => {
  await page.getByTestId('nav-compare').click();
  const tomcat = page.locator('.compare-list li').filter({ hasText: 'Tomcat BIO' });
  const step = tomcat.locator('[data-step="c=100, 30 s"]');
  await step.uncheck();
  assert.match(await page.getByTestId('compare-open').innerText(), /Compare 2 sessions \(1 step left out\)/);
  await page.getByTestId('compare-open').click();
  const rows = (label: string) => page.locator(`[data-testid="compare-step"][data-step="${label}"] [data-testid="compare-row"]`);
  await expectCount(rows('c=100, 30 s'), 1);
  assert.deepEqual(await rows('c=100, 30 s').evaluateAll((list) => list.map((row) => row.querySelector('td')?.textContent)), ['Vert.x event loop']);
  assert.equal(await rows('c=10, 30 s').count(), 2, 'the other step keeps both sessions');
  await step.check();
  await page.getByTestId('compare-open').click();
  await expectCount(rows('c=100, 30 s'), 2);
});

test('replay plays the stored timeline through the live dashboard: seek, speed, pause', async () => {
  // The page's clock is ours from here: it runs on as usual, and moves on at once when told to.
  await page.clock.install();
  await library.open();
  await library.row('Vert.x event loop').getByTestId('session-replay').click();
  const replay = page.getByTestId('replay');
  await page.getByTestId('replay-toggle').waitFor();
  assert.equal(await replay.getAttribute('data-duration'), '60');
  await page.getByTestId('replay-speed-20').click();
  await expectAttribute(replay, 'data-position', { atLeast: 20 });
  await page.getByTestId('replay-toggle').click();
  await page.getByTestId('replay-toggle').filter({ hasText: 'Play' }).waitFor();
  await page.getByTestId('replay-seek').fill('45');
  await expectAttribute(page.getByTestId('chart-rps'), 'data-points', '45');
  await expectAttribute(replay, 'data-position', '45');
  // Two seconds of the page's time pass at once: at 20× a playing replay would move 40 s on.
  await page.clock.runFor(2000);
  assert.equal(await replay.getAttribute('data-position'), '45', 'paused');
  // A point's t is the end of its second, where the live chart drew it: the 45th second ends at 45.
  assert.equal(await page.getByTestId('chart-rps').getAttribute('data-last-t'), '45');
  await page.getByTestId('replay-seek').fill('5');
  await expectAttribute(page.getByTestId('chart-rps'), 'data-points', '5');
  await page.getByTestId('replay-toggle').click();
  await expectAttribute(replay, 'data-position', '60', { timeout: 10_000 });
  // The chart writes what it drew after the page shows the position: wait for it too.
  await expectAttribute(page.getByTestId('chart-rps'), 'data-points', '60');
  assert.equal(await page.getByTestId('run-summary').locator('tbody tr').count(), 2);
});
