// Compare's per-endpoint layout: sessions that sent different requests become a row per endpoint
// and a column per server (requests/s, p99, the server's peak memory), the best of each row marked;
// sessions that all sent one request keep the per-step tables alone.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createLatencyHistogram, recordLatencyUs } from '../common/hdr.ts';
import { SummaryAccumulator } from '../runs/run-summary.ts';
import { buildComparison, type ComparedRunInput, type ComparedSessionInput } from './comparison.ts';
import { buildEndpointTable, sessionRequestOf } from './comparison-endpoints.ts';

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
  return {
    id,
    name: `s${id}`,
    status: 'completed',
    createdAt: '2026-01-01T00:00:00.000Z',
    startedAt: '2026-01-01T00:00:00.000Z',
    notes: '',
    tags: [],
    config: {
      profile: { target: 'http://10.0.0.2:8080', request: { path: request.path }, load: { model: 'closed', connections: 50, durationS: 3 } },
      ...(request.name ? { requestName: request.name } : {}),
    },
    clientHost: 'client',
    serverHost: 'server',
    systems: { client: null, server: null },
    runs: [run(id * 10, templateId, figures.p99Us, figures.rps, figures.rss)],
  };
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
