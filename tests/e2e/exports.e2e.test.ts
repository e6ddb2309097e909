// Session exports end to end in web mode and real Chromium: the Sessions page's Export ▾ downloads
// a session's CSV and HdrHistogram log, and the Compare page's Export data ▾ the opened comparison
// as one file of each kind, over sessions seeded into the data dir's real SQLite file.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import * as hdr from 'hdr-histogram-js';
import type { OpenWebApp } from '../support/open-web-app.ts';
import { openSeededLibrary, SessionsLibrary } from './pages/compare-pages.ts';
import { ExportMenu } from './pages/export-menu.ts';

let opened: OpenWebApp;
let page: Page;
let library: SessionsLibrary;
const ids: Record<string, number> = {};

before(async () => {
  ({ opened, page, library } = await openSeededLibrary((seeder) => {
    ids.sweep = seeder.session({ name: '=Sweep', templateId: 'vertx', rps: 900, latencyUs: 700, seconds: 6, sweep: [10, 100], startedAt: new Date('2026-03-01T10:00:00Z') }).sessionId;
    ids.single = seeder.session({ name: 'Node hello', templateId: 'node', rps: 400, latencyUs: 300, seconds: 4, startedAt: new Date('2026-03-02T10:00:00Z') }).sessionId;
  }));
});

after(async () => {
  await opened?.close();
});

test('Sessions page: Export ▾ downloads a session as CSV per second and as an HdrHistogram log', async () => {
  const menu = library.exportMenu('=Sweep');
  const [csv] = await menu.download('csv');
  assert.equal(csv!.fileName, `benchlab-session-${ids.sweep}-sweep.csv`);
  const lines = csv!.content.trimEnd().split('\r\n');
  assert.match(lines[0]!, /^run,step,template,variant,second,client,phase,duration_ms,requests,rps,/);
  assert.equal(lines.length, 1 + 12, 'a header and one row per stored second');

  const [log] = await menu.download('hdr-log');
  assert.equal(log!.fileName, `benchlab-session-${ids.sweep}-sweep.hlog`);
  const reader = new hdr.HistogramLogReader(log!.content);
  const tags: string[] = [];
  for (let interval = reader.nextIntervalHistogram(); interval; interval = reader.nextIntervalHistogram()) tags.push(interval.tag);
  assert.deepEqual(tags, [...Array(6).fill('run-1'), ...Array(6).fill('run-2')]);
});

test('Compare page: Export data ▾ downloads the comparison as one JSON, one CSV per second and one merged-histogram log', async () => {
  await library.compare(['=Sweep', 'Node hello']);
  const menu = new ExportMenu(page, page.getByTestId('page-compare'), 'compare-export-data');
  const [json] = await menu.download('json');
  const document = JSON.parse(json!.content) as { format: string; configurations: Array<{ letter: string; name: string }>; sessions: Array<{ label: string; session: { name: string } }> };
  assert.equal(document.format, 'benchlab-comparison');
  assert.deepEqual(document.configurations.map((config) => [config.letter, config.name]).sort(), [['A', '=Sweep'], ['B', 'Node hello']].sort());
  assert.equal(document.sessions.length, 2);

  const [csv] = await menu.download('csv');
  const lines = csv!.content.trimEnd().split('\r\n');
  assert.match(lines[0]!, /^configuration,label,session_id,session,run,step,/);
  assert.equal(lines.length, 1 + 12 + 4, 'every stored second of both sessions');
  assert.ok(lines.some((line) => line.includes(",\"'=Sweep\",") || line.includes(",'=Sweep,")), 'the session name is neutralised as a formula');

  const [log] = await menu.download('hdr-log');
  const reader = new hdr.HistogramLogReader(log!.content);
  const tags: string[] = [];
  for (let interval = reader.nextIntervalHistogram(); interval; interval = reader.nextIntervalHistogram()) tags.push(interval.tag);
  assert.equal(tags.length, 3, 'one merged histogram per compared run');
});

test('across the suite the page reports no CSP violation', async () => {
  assert.deepEqual(await opened.cspViolations(), []);
});
