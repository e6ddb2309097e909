// Compare's per-endpoint layout, end to end in web mode and real Chromium: four sessions of two
// servers and two named requests (as a plan with requests makes them) show a row per endpoint and a
// column per server, each cell with requests/s, p99, the server's memory and a JVM's GC, the best of
// each row marked; sessions that sent one request show no such table.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import type { OpenWebApp } from '../support/open-web-app.ts';
import { EndpointTable, openSeededLibrary, SessionsLibrary } from './pages/compare-pages.ts';

let opened: OpenWebApp;
let page: Page;
let library: SessionsLibrary;

const SESSIONS = ['Endpoints — node — json', 'Endpoints — node — fib', 'Endpoints — vertx — json', 'Endpoints — vertx — fib'];

before(async () => {
  ({ opened, page, library } = await openSeededLibrary((seeder) => {
    const at = (minute: number) => new Date(`2026-03-01T10:0${minute}:00Z`);
    // Node's GC from V8 through its monitor: five 10 ms pauses a second (5 % of the time), 12 MB of heap after them.
    const nodeGc = { gcPauses: 5, gcPauseMs: 50, gcLongestPauseMs: 10, heapAfterGcBytes: 12e6, eventLoopDelayP50Ms: 0.2, eventLoopDelayP99Ms: 3, eventLoopDelayMaxMs: 9, monitorWakesPerS: 60 };
    seeder.session({ name: SESSIONS[0]!, templateId: 'node', variant: 'async', path: '/json', config: { requestName: 'json' }, rps: 9000, latencyUs: 1_000, seconds: 3, startedAt: at(0), serverFigures: nodeGc });
    seeder.session({ name: SESSIONS[1]!, templateId: 'node', variant: 'async', path: '/fib?n=30', config: { requestName: 'fib' }, rps: 90, latencyUs: 100_000, seconds: 3, startedAt: at(1) });
    // Vert.x's GC log: one 20 ms pause a second (2 % of the time), 40 MB of heap after it.
    const gc = { gcPauses: 1, gcPauseMs: 20, gcLongestPauseMs: 20, heapAfterGcBytes: 40e6 };
    seeder.session({ name: SESSIONS[2]!, templateId: 'vertx', variant: 'eventloop', path: '/json', config: { requestName: 'json' }, rps: 12000, latencyUs: 800, seconds: 3, startedAt: at(2), serverFigures: gc });
    seeder.session({ name: SESSIONS[3]!, templateId: 'vertx', variant: 'eventloop', path: '/fib?n=30', config: { requestName: 'fib' }, rps: 60, latencyUs: 150_000, seconds: 3, startedAt: at(3), serverFigures: gc });
  }));
});

after(async () => {
  await opened?.close();
});

/** Compares these of SESSIONS, the others unticked. */
function compare(names: string[]): Promise<void> {
  return library.compare(names, SESSIONS);
}

test("sessions of different requests: a row per endpoint, a column per server, requests/s, p99, memory and the server's GC in each cell", async () => {
  await compare(SESSIONS);
  await page.getByTestId('compare-endpoints').waitFor();
  const table = new EndpointTable(page);
  assert.deepEqual(await table.servers(), ['node (async)', 'vertx (eventloop)']);
  const rows = await table.rows();
  assert.deepEqual(rows.map((row) => row.endpoint), ['json', 'fib']);
  for (const row of rows) {
    assert.equal(row.cells.length, 2);
    for (const cell of row.cells) {
      assert.match(cell.rps, /req\/s$/);
      assert.match(cell.p99, /^p99 [\d.,]+ ms$/);
      assert.match(cell.rss ?? '', /^RSS [\d.]+ (MB|MiB|KB|KiB|GB|GiB)/);
    }
  }
  // Vert.x's cells carry its GC log's, Node's json its monitor's, in the runtime line's words; Node's fib was stored without GC figures (as by older Benchlab).
  assert.deepEqual(
    rows.map((row) => row.cells.map((cell) => cell.gc)),
    [
      ['GC 5 % of the time, heap after GC up to 12 MB', 'GC 2 % of the time, heap after GC up to 40 MB'],
      ['GC —', 'GC 2 % of the time, heap after GC up to 40 MB'],
    ],
  );
  // Vert.x is ahead on json, Node on fib: the best marks follow each row, not a column.
  assert.deepEqual(rows[0]!.cells.map((cell) => cell.best.sort()), [[], ['p99', 'rps']]);
  assert.deepEqual(rows[1]!.cells.map((cell) => cell.best.sort()), [['p99', 'rps'], []]);
  assert.deepEqual(await opened.cspViolations(), []);
});

test('sessions that all sent one request show no per-endpoint table', async () => {
  await library.open();
  await compare([SESSIONS[0]!, SESSIONS[2]!]);
  assert.equal(await page.getByTestId('compare-endpoints').count(), 0);
  assert.deepEqual(await opened.cspViolations(), []);
});
