// "Import results…" end to end in web mode and real Chromium, with a file several times the
// transport's 1 MiB per request: a generated hey CSV of about 3 MB goes up in pieces and appears
// in the Sessions list, the page naming its request count; another is cancelled mid-upload (its
// pieces held at the socket so the test clicks Cancel while one is on its way) and leaves no
// session and no temporary file behind.

import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { formatValue } from '../../app/sessions/comparison-report.ts';
import { IMPORT_CHUNK_BYTES } from '../../app/sessions/importers/index.ts';
import { expectAttribute, expectCount, expectText } from '../support/browser.ts';
import { until } from '../support/until.ts';
import { openWebApp, type OpenWebApp } from '../support/open-web-app.ts';
import { SessionsLibrary } from './pages/compare-pages.ts';

let opened: OpenWebApp;
let page: Page;
let library: SessionsLibrary;
const dataDir = mkdtempSync(join(tmpdir(), 'benchlab-e2e-import-'));
const uploadsDir = join(dataDir, 'tmp', 'imports');

/** Pieces from the third on wait here while `holding`, until released. */
const gate = { holding: false, held: [] as Array<() => void> };

before(async () => {
  opened = await openWebApp({
    dataDir,
    timeoutMs: 30_000,
    beforeOpen: async (page) => {
      await page.routeWebSocket(/.*/, (socket) => {
        const server = socket.connectToServer();
        socket.onMessage((message) => {
          const call = JSON.parse(String(message)) as { name?: string; args?: { offset?: number } };
          const forward = () => server.send(message);
          if (gate.holding && call.name === 'sessions.importChunk' && (call.args?.offset ?? 0) >= 2 * IMPORT_CHUNK_BYTES) gate.held.push(forward);
          else forward();
        });
      });
    },
  });
  page = opened.page;
  library = new SessionsLibrary(page);
  await library.open();
});

after(async () => {
  await opened?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** hey's -o csv with `requests` answered requests spread over 30 s. */
function heyCsv(requests: number): Buffer {
  const lines = ['response-time,DNS+dialup,DNS,Request-write,Response-delay,Response-read,status-code,offset'];
  for (let index = 0; index < requests; index++) {
    const latency = (1 + (index % 50)) / 10_000;
    lines.push(`${latency.toFixed(4)},0.0000,0.0000,0.0000,${(latency - 0.0001).toFixed(4)},0.0001,200,${((index * 30) / requests).toFixed(4)}`);
  }
  return Buffer.from(`${lines.join('\n')}\n`);
}

async function chooseFile(name: string, content: Buffer): Promise<void> {
  await page.getByTestId('sessions-import-format').selectOption('hey');
  await page.getByTestId('sessions-import-file').setInputFiles({ name, mimeType: 'text/csv', buffer: content });
}

const uploadsLeft = () => {
  try {
    return readdirSync(uploadsDir);
  } catch {
    return [];
  }
};

test('a 3 MB hey CSV goes up in pieces and appears in the list with its request count', async () => {
  const content = heyCsv(60_000);
  assert.ok(content.length > 3_000_000, `${content.length} bytes: six pieces, each one request`);
  await chooseFile('hey-3mb.csv', content);
  const row = library.row('hey-3mb.csv (imported from hey)');
  await row.waitFor();
  await expectText(row.getByTestId('session-templates'), "imported from hey's CSV");
  await expectText(page.getByTestId('sessions-import-done'), 'Imported “hey-3mb.csv (imported from hey)”: 60,000 requests.');
  await expectCount(page.getByTestId('sessions-import-progress'), 0);
  assert.deepEqual(uploadsLeft(), [], 'the temporary file is gone');
});

test('Cancel stops an upload under way: no session, no temporary file', async () => {
  const before = await page.getByTestId('session-row').count();
  gate.holding = true;
  try {
    await chooseFile('cancelled.csv', heyCsv(60_000));
    const progress = page.getByTestId('sessions-import-progress');
    await until(() => gate.held.length > 0, 'the third piece to be on its way', 30_000);
    await expectAttribute(progress, 'data-phase', 'uploading');
    await expectText(page.getByTestId('sessions-import-progress-text'), /^1\.0 of 3\.\d MiB \(3\d %\)$/);
    assert.equal(uploadsLeft().length, 1, 'the upload is kept while it arrives');
    await page.getByTestId('sessions-import-cancel').click();
    await expectText(page.getByTestId('sessions-import-progress-text'), 'Cancelling…');
  } finally {
    gate.holding = false;
    for (const forward of gate.held.splice(0)) forward();
  }
  await page.getByTestId('sessions-import-button').waitFor();
  await until(() => uploadsLeft().length === 0, 'the cancelled upload to be removed', 10_000);
  await expectCount(page.getByTestId('session-row'), before);
  assert.equal(await library.row('cancelled.csv (imported from hey)').count(), 0);
  await expectCount(page.getByTestId('sessions-import-done'), 0);
});

test("an ab -g file with ab's text report beside it: the run's length is ab's elapsed time, not the -g file's whole seconds", async () => {
  const fixture = (name: string) => readFileSync(new URL(`../fixtures/imports/tools/${name}`, import.meta.url));
  const report = fixture('ab-g-run.txt').toString('utf8');
  const abRate = Number(/^Complete requests:\s+(\d+)/m.exec(report)![1]) / Number(/^Time taken for tests:\s+(\S+) seconds/m.exec(report)![1]);
  const shown = new RegExp(`^${formatValue({ unit: 'rps' }, abRate).replaceAll('.', '\\.')}`);
  await page.getByTestId('sessions-import-format').selectOption('ab');
  await page.getByTestId('sessions-import-report-file').setInputFiles({ name: 'ab-g-run.txt', mimeType: 'text/plain', buffer: fixture('ab-g-run.txt') });
  await expectText(page.getByTestId('sessions-import-report'), /with the report ab-g-run\.txt/);
  await page.getByTestId('sessions-import-file').setInputFiles({ name: 'with-report.tsv', mimeType: 'text/tab-separated-values', buffer: fixture('ab-g.tsv') });
  await expectText(library.row('with-report.tsv (imported from ab)').getByTestId('session-rps'), shown);
  // Without the report the run lasts the -g file's whole seconds: another rate.
  await page.getByTestId('sessions-import-report-clear').click();
  await page.getByTestId('sessions-import-file').setInputFiles({ name: 'without-report.tsv', mimeType: 'text/tab-separated-values', buffer: fixture('ab-g.tsv') });
  const without = library.row('without-report.tsv (imported from ab)').getByTestId('session-rps');
  await without.waitFor();
  assert.doesNotMatch(await without.innerText(), shown);
  // Another format takes no report: none is offered.
  await page.getByTestId('sessions-import-format').selectOption('hey');
  await expectCount(page.getByTestId('sessions-import-report-button'), 0);
});

test('across the suite the page reports no CSP violation', async () => {
  assert.deepEqual(await opened.cspViolations(), []);
});
