// Compare's per-endpoint layout: sessions that sent different requests become a row per endpoint
// and a column per server (requests/s, p99, the server's peak memory, a JVM's GC), the best of each row marked;
// sessions that all sent one request keep the per-step tables alone.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createLatencyHistogram, recordLatencyUs } from '../common/hdr.ts';
import { SummaryAccumulator } from '../runs/run-summary.ts';
import { buildComparison, type ComparedRunInput, type ComparedSessionInput } from './comparison.ts';
import { buildEndpointTable, endpointGcText, sessionRequestOf } from './comparison-endpoints.ts';
import { renderReportHtml } from './comparison-report.ts';
import { comparedSession } from '../../tests/support/compared-session.ts';

function run(runId: number, templateId: string, latencyUs: number, rps: number, rssBytes: number | null): ComparedRunInput {
  const accumulator = new SummaryAccumulator();
  const histogram = createLatencyHistogram();
  for (let second = 0; second < 3; second++) {
    const interval = createLatencyHistogram();
    for (let i = 0; i < 100; i++) recordLatencyUs(interval, latencyUs + i);
    histogram.add(interval);
    accumulator.add({ scheduled: rps, inFlight: 0, requests: rps, bytes: rps, durationMs: 1000, errors: {}, status: { '2xx': rps }, histogram: interval });
  }
  const summary = accumulator.summary([800, 1200]);
  return {
    runId,
    stepLabel: 'c=50',
    templateId,
    variant: 'async',
    status: 'completed',
    summary: rssBytes === null ? summary : { ...summary, serverMemory: { minBytes: rssBytes / 2, maxBytes: rssBytes, endBytes: rssBytes } },
    histogram,
    startedAt: null,
    seconds: [],
  };
}

function session(id: number, templateId: string, request: { name?: string; path: string }, figures: { p99Us: number; rps: number; rss: number | null }): ComparedSessionInput {
  return comparedSession(id, [run(id * 10, templateId, figures.p99Us, figures.rps, figures.rss)], {
    name: `s${id}`,
    config: {
      profile: { target: 'http://10.0.0.2:8080', request: { path: request.path }, load: { model: 'closed', connections: 50, durationS: 3 } },
      ...(request.name ? { requestName: request.name } : {}),
    },
  });
}

test('sessions of two servers and two endpoints: a row per endpoint, a column per server, memory in each cell', () => {
  const comparison = buildComparison([
    session(1, 'node', { name: 'json', path: '/json' }, { p99Us: 1_000, rps: 9000, rss: 60e6 }),
    session(2, 'node', { name: 'fib', path: '/fib?n=30' }, { p99Us: 90_000, rps: 90, rss: 70e6 }),
    session(3, 'vertx', { name: 'json', path: '/json' }, { p99Us: 800, rps: 12000, rss: 200e6 }),
    session(4, 'vertx', { name: 'fib', path: '/fib?n=30' }, { p99Us: 120_000, rps: 60, rss: 250e6 }),
  ]);
  assert.deepEqual(comparison.sessions.map((entry) => entry.request?.name), ['json', 'fib', 'json', 'fib']);
  const table = buildEndpointTable(comparison)!;
  assert.ok(table);
  assert.deepEqual(table.servers.map((server) => server.label), ['node (async)', 'vertx (async)']);
  assert.deepEqual(
    table.rows.map((row) => [row.endpoint, row.request, row.step]),
    [
      ['json', 'GET /json', null],
      ['fib', 'GET /fib?n=30', null],
    ],
  );
  const [json, fib] = table.rows;
  assert.deepEqual(json!.cells.map((cell) => cell?.rps), [9000, 12000]);
  assert.deepEqual(fib!.cells.map((cell) => cell?.rssMaxBytes), [70e6, 250e6]);
  assert.equal(table.memory, true);
  // Best per row: vertx on json, node on fib.
  assert.deepEqual(json!.cells.map((cell) => [cell?.bestRps, cell?.bestP99]), [[false, false], [true, true]]);
  assert.deepEqual(fib!.cells.map((cell) => [cell?.bestRps, cell?.bestP99]), [[true, true], [false, false]]);
});

test("a JVM server's GC goes in its cells (share of the time in pauses, heap after GC); a server without a GC log says so", () => {
  const gc = (entry: ComparedSessionInput, share: number, heap: number): ComparedSessionInput => {
    const only = entry.runs[0]!;
    const serverRuntime = { seconds: 3, threadsMax: 20, busiestCoreMedian: 0.9, runQueueMedian: 2, voluntarySwitchesPerSMedian: 100, involuntarySwitchesPerSMedian: 10, tcpRetransmits: 0, listenOverflows: 0, gcPauses: 12, gcPauseShare: share, gcLongestPauseMs: 9, heapAfterGcMaxBytes: heap };
    return { ...entry, runs: [{ ...only, summary: { ...only.summary!, serverRuntime } }] };
  };
  const comparison = buildComparison([
    session(1, 'node', { name: 'json', path: '/json' }, { p99Us: 1_000, rps: 9000, rss: 60e6 }),
    session(2, 'node', { name: 'concat', path: '/concat?n=10000' }, { p99Us: 5_000, rps: 2000, rss: 80e6 }),
    gc(session(3, 'vertx', { name: 'json', path: '/json' }, { p99Us: 900, rps: 9500, rss: 150e6 }), 0.004, 20e6),
    gc(session(4, 'vertx', { name: 'concat', path: '/concat?n=10000' }, { p99Us: 4_000, rps: 2500, rss: 350e6 }), 0.031, 42e6),
  ]);
  const table = buildEndpointTable(comparison)!;
  assert.equal(table.gc, true);
  assert.deepEqual(
    table.rows.map((row) => row.cells.map((cell) => [cell!.gcShare, cell!.heapAfterGcMaxBytes])),
    [
      [[null, null], [0.004, 20e6]],
      [[null, null], [0.031, 42e6]],
    ],
  );
  assert.deepEqual(table.rows[1]!.cells.map((cell) => endpointGcText(cell!)), ['GC —', 'GC 3.1 % of the time, heap after GC up to 42 MB']);
  const pdf = renderReportHtml(comparison, { generatedAt: new Date('2026-01-01T00:00:00Z') });
  const endpointsChapter = pdf.slice(pdf.indexOf('Results per endpoint'));
  assert.ok(endpointsChapter.includes('GC 3.1 % of the time, heap after GC up to 42 MB') && endpointsChapter.includes('GC 0.4 % of the time, heap after GC up to 20 MB'), "the PDF's per-endpoint table prints each cell's GC");
  assert.equal(buildEndpointTable(buildComparison([session(1, 'node', { path: '/json' }, { p99Us: 1, rps: 1, rss: null }), session(2, 'node', { path: '/fib' }, { p99Us: 1, rps: 1, rss: null })]))!.gc, false);
});

test('unnamed requests line up by method and path; a server that did not run an endpoint has an empty cell', () => {
  const comparison = buildComparison([
    session(1, 'node', { path: '/json' }, { p99Us: 1_000, rps: 9000, rss: null }),
    session(2, 'node', { path: '/concat?n=10000' }, { p99Us: 5_000, rps: 2000, rss: null }),
    session(3, 'vertx', { path: '/json' }, { p99Us: 900, rps: 9500, rss: null }),
  ]);
  const table = buildEndpointTable(comparison)!;
  assert.deepEqual(table.rows.map((row) => row.endpoint), ['GET /json', 'GET /concat?n=10000']);
  assert.equal(table.rows[1]!.cells[1], null);
  assert.equal(table.memory, false);
});

test('sessions that all sent one request, or an import without a profile, keep the per-step tables alone', () => {
  const same = buildComparison([
    session(1, 'node', { name: 'json', path: '/json' }, { p99Us: 1_000, rps: 9000, rss: null }),
    session(2, 'vertx', { name: 'json', path: '/json' }, { p99Us: 900, rps: 9500, rss: null }),
  ]);
  assert.equal(buildEndpointTable(same), null);
  assert.equal(sessionRequestOf({}), null);
  assert.deepEqual(sessionRequestOf({ profile: { target: 'http://a:1', request: { method: 'POST', path: '/docs' }, load: { model: 'closed', connections: 1, durationS: 1 } }, requestName: 'db' }), {
    name: 'db',
    method: 'POST',
    path: '/docs',
  });
});
