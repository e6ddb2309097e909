// The seed's published figures beside a comparison, end to end in web mode and real Chromium: two
// sessions tagged with the ab study's id (as a plan of that study tags them) show the ab seed's own
// table, marked as imported, with the session that ran each row; sessions of no study show none.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import type { OpenWebApp } from '../support/open-web-app.ts';
import { openSeededLibrary, PublishedBySeed, SessionsLibrary } from './pages/compare-pages.ts';

let opened: OpenWebApp;
let page: Page;
let library: SessionsLibrary;

before(async () => {
  ({ opened, page, library } = await openSeededLibrary((seeder) => {
    seeder.session({ name: 'ab seed — apache', templateId: 'apache-static', variant: 'mpm_event', rps: 3000, latencyUs: 30_000, seconds: 3, tags: ['ab-fixed-count'], startedAt: new Date('2026-03-01T10:00:00Z') });
    seeder.session({ name: 'ab seed — node', templateId: 'node-0-8', variant: 'async', rps: 4000, latencyUs: 20_000, seconds: 3, tags: ['ab-fixed-count'], startedAt: new Date('2026-03-01T10:01:00Z') });
    seeder.session({ name: 'Tomcat alone', templateId: 'tomcat', variant: 'sync', rps: 1000, latencyUs: 2000, seconds: 3, startedAt: new Date('2026-03-02T10:00:00Z') });
  }));
});

after(async () => {
  await opened?.close();
});

const SESSIONS = ['ab seed — apache', 'ab seed — node', 'Tomcat alone'];

/** Compares these of SESSIONS, the others unticked. */
function compare(names: string[]): Promise<void> {
  return library.compare(names, SESSIONS);
}

test('a study’s sessions show the seed’s own table beside them, marked as the seed’s, with who ran each row here', async () => {
  await compare(['ab seed — apache', 'ab seed — node']);
  const published = new PublishedBySeed(page);
  await page.getByTestId('compare-published').waitFor();
  assert.match(await published.note(), /^ab 2\.3 on one machine .*imported for reference: not measured by Benchlab, never in a verdict/);
  const rows = await published.rows();
  assert.deepEqual(rows.map((row) => row.cells[0]), ['Apache 2.2.20, static file', 'Node.js hello world']);
  assert.ok(rows[0]!.cells.includes('3785.48') && rows[1]!.cells.includes('6134.36'), 'the seed’s requests/s as it printed them');
  assert.deepEqual(rows.map((row) => row.ran), ['A', 'B'], 'each row names the configuration that ran it here');
  assert.deepEqual(await opened.cspViolations(), []);
});

test('sessions of no study show no published table', async () => {
  await library.open();
  await compare(['ab seed — apache', 'Tomcat alone']);
  assert.equal(await page.getByTestId('compare-published').count(), 0);
  assert.deepEqual(await opened.cspViolations(), []);
});
