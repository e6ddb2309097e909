// The sessions library, the Compare page, the PDF export and replay end to end in web mode and real
// Chromium, over sessions seeded into the data dir's real SQLite file through the repositories.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { expectAttribute, expectCount } from '../support/browser.ts';
import type { OpenWebApp } from '../support/open-web-app.ts';
import { CompareHeadline, ComparePage, exportPdf, openSeededLibrary, SessionsLibrary } from './pages/compare-pages.ts';
import { orphanHeadings, pdfPages } from '../support/pdf-layout.ts';

let opened: OpenWebApp;
let page: Page;
let library: SessionsLibrary;

before(async () => {
  ({ opened, page, library } = await openSeededLibrary((seeder) => {
    seeder.session({ name: 'Tomcat BIO', templateId: 'tomcat', variant: 'bio', rps: 1100, latencyUs: 4000, seconds: 30, sweep: [10, 100], tags: ['jvm'], startedAt: new Date('2026-03-01T10:00:00Z') });
    seeder.session({ name: 'Vert.x event loop', templateId: 'vertx', rps: 3300, latencyUs: 900, seconds: 30, sweep: [10, 100], tags: ['jvm'], startedAt: new Date('2026-03-05T10:00:00Z'), serverInfo: { cpuCores: 4 } });
    seeder.session({ name: 'Node hello', templateId: 'node', rps: 2000, latencyUs: 1500, seconds: 10, startedAt: new Date('2026-03-09T10:00:00Z') });
  }));
});

after(async () => {
  await opened?.close();
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
  await library.menuAction('Node hello', 'session-details-toggle');
  await page.getByTestId('session-notes').fill('baseline on the lab');
  await page.getByTestId('session-tags').fill('node, hello');
  await page.getByTestId('session-save').click();
  await node.getByTestId('session-tag-list').filter({ hasText: 'node, hello' }).waitFor();
  await library.search('baseline');
  assert.deepEqual(await library.names(), ['Node hello']);
  await library.search('');

  await library.menuAction('Node hello', 'session-duplicate');
  await library.row('Node hello (copy)').waitFor();
  const copy = library.row('Node hello (copy)');
  assert.match(await copy.innerText(), /draft/);
  await library.menuAction('Node hello (copy)', 'session-delete');
  await copy.getByTestId('session-delete-confirm').click();
  await copy.waitFor({ state: 'detached' });
  assert.equal(await page.getByTestId('session-row').count(), 3);
});

test('compare two sweeps: the headline first, best values marked, host warning, charts, and a PDF downloaded with its first page answering', async () => {
  await library.compare(['Tomcat BIO', 'Vert.x event loop']);
  const compare = new ComparePage(page);
  const rps = await compare.column('c=10, 30 s', 'rps');
  assert.equal(rps.length, 2);
  assert.deepEqual(rps.map((cell) => cell.best), [false, true]);
  const p99 = await compare.column('c=100, 30 s', 'p99');
  assert.deepEqual(p99.map((cell) => cell.best), [false, true]);
  assert.match(await page.getByTestId('compare-warning').first().innerText(), /Not comparable: the server hosts differ in cores/);
  assert.equal(await page.getByTestId('compare-chart-rps').getAttribute('data-series'), '2');
  assert.equal(await page.getByTestId('compare-chart-distribution').getAttribute('data-series'), '2');
  assert.equal(await page.getByTestId('compare-chart-sweep-rps').getAttribute('data-series'), '2', 'a sweep is drawn against its connections');

  const headline = new CompareHeadline(page);
  const configurations = await headline.configurations();
  assert.deepEqual(configurations.map((config) => [config.letter, config.cells[1], config.cells[2], config.cells[3]]), [['A', 'Tomcat BIO', 'tomcat', 'bio'], ['B', 'Vert.x event loop', 'vertx', 'default']]);
  const rows = await headline.rows('c=10, 30 s');
  assert.deepEqual(rows.map((row) => row.letter), ['A', 'B']);
  assert.equal(rows[1]!.values.rps, rps[1]!.value, 'the headline shows the step table\'s figure');
  assert.deepEqual(rows[1]!.best.sort(), ['max', 'p50', 'p99', 'rps']);
  assert.match((await headline.verdicts('c=10, 30 s'))[0]!, /^Requests\/s: B is 3\.\d\d× A — too few runs for a verdict \(1 run each; 5 a side needed\)\.$/);

  // A reload keeps the selection and reopens the comparison.
  await page.reload();
  await page.getByTestId('comparison').waitFor();

  await page.getByTestId('compare-title').fill('Tomcat BIO vs Vert.x');
  await page.getByTestId('compare-notes').fill('Seeded for the e2e test.');
  const pdf = await exportPdf(page);
  assert.ok(existsSync(pdf.kept), 'a copy is kept in the data dir');
  assert.match(pdf.fileName, /^tomcat-bio-vs-vert-x-.*\.pdf$/);
  assert.deepEqual(readFileSync(pdf.downloaded), readFileSync(pdf.kept), 'the browser got the same PDF');
  const pages = pdfPages(pdf.downloaded);
  for (const expected of ['Tomcat BIO vs Vert.x', 'What was compared', 'Tomcat BIO', 'Vert.x event loop', 'Headline', rps[1]!.value, 'too few runs for a verdict', 'Not comparable: the server hosts differ in cores', 'Seeded for the e2e test.']) {
    assert.ok(pages[0]!.includes(expected), `the first page holds ${expected}`);
  }
  assert.deepEqual(orphanHeadings(pages, ['What was compared', 'Headline', 'Warnings', 'Notes', 'Charts', 'Results per step', 'c=10, 30 s', 'c=100, 30 s', 'Hosts']), []);
  // Rendered, the first page is not blank.
  execFileSync('pdftoppm', ['-png', '-r', '40', '-f', '1', '-l', '1', pdf.downloaded, join(opened.app.dataDir, 'first')]);
  assert.ok(readFileSync(join(opened.app.dataDir, 'first-1.png')).byteLength > 5000);
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

test('across the suite the page reports no CSP violation', async () => {
  assert.deepEqual(await opened.cspViolations(), []);
});
