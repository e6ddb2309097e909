// Like with like, in web mode and real Chromium over sessions seeded into the data dir: the Sessions
// page's "best of N steps" names its step and never picks an overloaded or failed one; Compare keeps
// Spring Boot on Tomcat and on Jetty apart (their knobs in the labels) and a failed run apart from
// its rerun, shows the failed run's status and never marks it best, and shows the server's memory.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import type { OpenWebApp } from '../support/open-web-app.ts';
import { CompareHeadline, ComparePage, openSeededLibrary, SessionsLibrary } from './pages/compare-pages.ts';

let opened: OpenWebApp;
let page: Page;
let library: SessionsLibrary;

before(async () => {
  ({ opened, page, library } = await openSeededLibrary((seeder) => {
    const spring = { templateId: 'spring-boot', variant: 'sync', rps: 2400, latencyUs: 2000, seconds: 5 };
    seeder.session({ ...spring, name: 'Spring Boot · sync', knobs: { container: 'tomcat' }, startedAt: new Date('2026-03-01T10:00:00Z') });
    seeder.session({ ...spring, name: 'Spring Boot · sync', knobs: { container: 'jetty' }, rps: 2300, startedAt: new Date('2026-03-01T11:00:00Z') });
    seeder.session({ name: 'Node', templateId: 'node', rps: 5000, latencyUs: 900, seconds: 5, status: 'failed', startedAt: new Date('2026-03-02T10:00:00Z') });
    seeder.session({ name: 'Node', templateId: 'node', rps: 410, latencyUs: 1500, seconds: 5, startedAt: new Date('2026-03-02T11:00:00Z') });
    // A sweep whose third step served the most but timed out a fifth of its requests, and whose last step failed.
    seeder.session({
      name: 'Node sweep',
      templateId: 'node',
      rps: 1000,
      latencyUs: 1000,
      seconds: 5,
      sweep: [10, 50, 200, 400],
      stepLoad: [{ rpsFactor: 1 }, { rpsFactor: 1.5 }, { rpsFactor: 2, timeoutShare: 0.2 }, { rpsFactor: 3 }],
      status: 'failed',
      startedAt: new Date('2026-03-03T10:00:00Z'),
    });
  }));
  await page.getByTestId('session-row').nth(4).waitFor();
});

after(async () => {
  await opened?.close();
});

test('"best of N steps" names its step: the most requests/s among the completed steps without saturation', async () => {
  const figures = await library.figures('Node sweep');
  assert.equal(figures?.bestOf, 'best of 4 steps: c=50, 5 s', 'not c=200 (a fifth timed out), not c=400 (failed)');
});

test('Compare: Tomcat and Jetty are two configurations with their knobs; a failed run is apart from its rerun, never best', async () => {
  for (const row of await page.getByTestId('session-row').all()) {
    const name = (await row.getByTestId('session-name').innerText()).trim();
    if (name !== 'Node sweep') await row.getByTestId('session-select').check();
  }
  await library.compareTicked();
  const headline = new CompareHeadline(page);
  const names = (await headline.configurations()).map((config) => config.cells[1]);
  assert.deepEqual(names.sort(), ['Node', 'Node — failed', 'Spring Boot · sync · container jetty', 'Spring Boot · sync · container tomcat']);
  const rows = await headline.rows();
  const failed = rows.find((row) => row.configuration === 'Node — failed')!;
  assert.deepEqual(failed.best, [], 'the failed run served the most but is never best');
  assert.ok(rows.find((row) => row.configuration === 'Node')!.values.rps!.startsWith('4'), 'the rerun alone, no median with the failed run');
  assert.ok(rows.some((row) => row.best.includes('rps')), 'a completed configuration is best');

  const compare = new ComparePage(page);
  const step = (await page.getByTestId('compare-step').first().getAttribute('data-step'))!;
  const rps = await compare.column(step, 'rps');
  const statuses = await page.locator(`[data-testid="compare-step"][data-step="${step}"] [data-testid="compare-row"]`).evaluateAll((list) => list.map((row) => row.querySelector('[data-testid="compare-row-status"]')?.textContent ?? 'completed'));
  assert.deepEqual(statuses.filter((status) => status !== 'completed'), ['failed']);
  assert.equal(rps[statuses.indexOf('failed')]!.best, false);
  // The server's memory over each run, under its step's table.
  assert.match(await page.getByTestId('compare-memory').first().innerText(), /^Server memory \(RSS\), .+: 80 MB min, 80 MB max, 80 MB at the end$/);
  // And why it ran so: the seeded readings (24 threads, run queue 2, 1,500 waits and 40 preemptions a second).
  assert.match(await page.getByTestId('compare-runtime').first().innerText(), /^Server, .+: threads up to 24 · run queue 2 · context switches\/s 1,500 waited, 40 preempted · 0 TCP retransmits \(medians per second over \d+ s\)$/);
  assert.deepEqual(await opened.cspViolations(), []);
});
