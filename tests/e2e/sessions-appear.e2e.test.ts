// "The app, if open, sees them appear": the app in web mode (its own process) shows the Sessions
// page while another process — here this test, through the repositories, as a CLI run or import
// would — stores a session in the same data dir; the page lists it without a reload by the user.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { openDatabase, type Db } from '../../main/services/store/database.ts';
import { createSeeder } from '../support/session-seed.ts';
import { openWebApp, type OpenWebApp } from '../support/open-web-app.ts';
import { SessionsLibrary } from './pages/compare-pages.ts';

let opened: OpenWebApp;
let page: Page;
let db: Db;
const dataDir = mkdtempSync(join(tmpdir(), 'benchlab-e2e-appear-'));

before(async () => {
  db = openDatabase(dataDir).db;
  createSeeder(db).session({ name: 'Before the app opened', templateId: 'node', rps: 2000, latencyUs: 1500, seconds: 5, startedAt: new Date('2026-03-01T10:00:00Z') });
  opened = await openWebApp({ dataDir });
  page = opened.page;
});

after(async () => {
  await opened?.close();
  db?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

test('a session another process stores appears on the open Sessions page', async () => {
  const library = new SessionsLibrary(page);
  await library.open();
  await library.row('Before the app opened').waitFor();
  createSeeder(db, { client: 'cli-client', server: 'cli-server' }).session({
    name: 'Stored by another process',
    templateId: 'vertx',
    rps: 3300,
    latencyUs: 900,
    seconds: 5,
    startedAt: new Date('2026-03-02T10:00:00Z'),
  });
  await library.row('Stored by another process').waitFor();
});

test('across the suite the page reports no CSP violation', async () => {
  assert.deepEqual(await opened.cspViolations(), []);
});
