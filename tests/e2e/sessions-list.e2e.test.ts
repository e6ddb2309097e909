// The Sessions list in a 1280-pixel window, in web mode and real Chromium over sessions seeded into
// the data dir: each row shows its template and headline figures (a sweep its best step's, saying
// so), every column and every row's actions fit without scrolling sideways, and the lesser actions
// work from the row's ⋯ menu. The other pages with tables (Hosts, Presets, Templates, Compare) fit
// the same window.

import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { formatMs, formatValue } from '../../app/sessions/comparison-report.ts';
import { RunsRepository } from '../../main/services/runs/runs-repository.ts';
import { SessionsRepository } from '../../main/services/runs/sessions-repository.ts';
import { createSeeder } from '../support/session-seed.ts';
import { openWebApp, type OpenWebApp } from '../support/open-web-app.ts';
import { ComparePage, SessionsLibrary } from './pages/compare-pages.ts';
import { HostsPage } from './pages/hosts-page.ts';
import { PresetsPage } from './pages/presets-page.ts';
import { NARROW_WINDOW } from './pages/table-layout.ts';
import { TemplatesPage } from './pages/templates-page.ts';

const LONG_NAME = `Throughput of the reactive stack behind the corporate proxy with TLS termination and a very long descriptive name that someone typed`;
/** Screenshots of the pages at 1280 pixels, kept for a person to look at. */
const SHOTS = process.env.BENCHLAB_SCREENSHOTS ?? join(tmpdir(), 'benchlab-e2e-1280');

let opened: OpenWebApp;
let page: Page;
let library: SessionsLibrary;
/** The expected figures per session name, from its best stored run. */
const expected = new Map<string, { rps: string; p99: string; steps: number; step: string }>();

before(async () => {
  opened = await openWebApp({
    viewport: NARROW_WINDOW,
    seed: (db) => {
      const seeder = createSeeder(db);
      const runs = new RunsRepository(db);
      const sessions = new SessionsRepository(db);
      const seeded = [
        seeder.session({ name: 'Tomcat BIO sweep', templateId: 'tomcat', variant: 'bio', rps: 1100, latencyUs: 4000, seconds: 10, sweep: [10, 100, 400], tags: ['jvm', 'sweep'], startedAt: new Date('2026-03-01T10:00:00Z') }),
        seeder.session({ name: 'Node hello', templateId: 'node', rps: 2000, latencyUs: 1500, seconds: 10, startedAt: new Date('2026-03-05T10:00:00Z') }),
        seeder.session({ name: LONG_NAME, templateId: 'spring-webflux-netty', rps: 5400, latencyUs: 700, seconds: 10, tags: ['reactive', 'tls', 'proxy'], startedAt: new Date('2026-03-09T10:00:00Z') }),
      ];
      for (const { sessionId } of seeded) {
        const stored = runs.forSession(sessionId);
        const best = stored.reduce((a, b) => (b.summary!.requestsPerSecond > a.summary!.requestsPerSecond ? b : a));
        expected.set(sessions.get(sessionId).name, { rps: formatValue({ unit: 'rps' }, best.summary!.requestsPerSecond), p99: `${formatMs(best.summary!.p99Us!)} ms`, steps: stored.length, step: String(best.step.label) });
      }
      sessions.create({ name: 'Draft without runs' }, new Date('2026-03-10T10:00:00Z'));
    },
  });
  page = opened.page;
  mkdirSync(SHOTS, { recursive: true });
  library = new SessionsLibrary(page);
  await library.open();
  await page.getByTestId('session-row').nth(3).waitFor();
});

after(async () => {
  await opened?.close();
});

test('each session shows its template and headline figures; a sweep says they are its best step’s', async () => {
  await page.screenshot({ path: join(SHOTS, 'sessions.png') });
  for (const [name, figures] of expected) {
    assert.deepEqual(await library.figures(name), { rps: figures.rps, p99: figures.p99, errors: '0', bestOf: figures.steps > 1 ? `best of ${figures.steps} steps: ${figures.step}` : null }, name);
  }
  assert.equal(await library.template('Tomcat BIO sweep'), 'tomcat');
  assert.equal(await library.template(LONG_NAME), 'spring-webflux-netty');
  assert.equal(await library.figures('Draft without runs'), null, 'a draft has no figures');
});

test('at 1280 pixels the sessions table shows every column and every row’s actions', async () => {
  assert.deepEqual(await library.layoutProblems(), []);
  // The ⋯ menu opens inside the window, even for the last row, with its actions usable.
  const menu = await library.openMenu('Draft without runs');
  await page.screenshot({ path: join(SHOTS, 'sessions-menu.png') });
  const box = (await menu.boundingBox())!;
  assert.ok(box.x >= 0 && box.x + box.width <= NARROW_WINDOW.width && box.y >= 0 && box.y + box.height <= NARROW_WINDOW.height, `menu at ${JSON.stringify(box)}`);
  await page.keyboard.press('Escape');
  await menu.waitFor({ state: 'hidden' });
  await library.menuAction('Node hello', 'session-rename');
  await page.getByTestId('session-rename-input').fill('Node hello, renamed');
  await page.getByTestId('session-rename-input').press('Enter');
  await library.row('Node hello, renamed').waitFor();
  assert.deepEqual(await library.layoutProblems(), []);
});

test('Compare, Hosts, Presets and Templates fit 1280 pixels too', async () => {
  await library.row('Tomcat BIO sweep').getByTestId('session-select').check();
  await library.row(LONG_NAME).getByTestId('session-select').check();
  await page.getByTestId('sessions-compare').click();
  await page.getByTestId('compare-open').click();
  await page.getByTestId('compare-configurations').waitFor();
  await page.screenshot({ path: join(SHOTS, 'compare.png') });
  await page.getByTestId('compare-step').last().screenshot({ path: join(SHOTS, 'compare-step.png') });
  assert.deepEqual(await new ComparePage(page).layoutProblems(), []);

  const hosts = new HostsPage(page);
  await hosts.open();
  await page.getByTestId('hosts-table').waitFor();
  await page.screenshot({ path: join(SHOTS, 'hosts.png') });
  assert.deepEqual(await hosts.layoutProblems(), []);

  const presets = new PresetsPage(page);
  await presets.open();
  await page.getByTestId('preset-row').first().waitFor();
  await presets.duplicate();
  await page.screenshot({ path: join(SHOTS, 'presets.png') });
  assert.deepEqual(await presets.layoutProblems(), []);

  const templates = new TemplatesPage(page);
  await templates.open();
  await templates.card('node').waitFor();
  await page.screenshot({ path: join(SHOTS, 'templates.png') });
  assert.deepEqual(await templates.layoutProblems(), []);
});

test('across the suite the page reports no CSP violation', async () => {
  assert.deepEqual(await opened.cspViolations(), []);
});
