// What the session dashboard shows of several load clients, without a browser: each client's share
// and clock offset in words (renderer/src/features/runs/client-texts.ts), and the Per client charts
// (run-charts.ts) drawing each client's requests/s and p99 from LivePoint.clients beside the merged ones.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LivePoint } from '../../app/runs/runs.ts';
import { clientShareText, clockOffsetText } from '../../renderer/src/features/runs/client-texts.ts';
import { perClientCharts, RUN_CHARTS } from '../../renderer/src/features/runs/run-charts.ts';

test('a share: of all weights, the weight (said when it is the core count), and its part of the step', () => {
  assert.equal(clientShareText({ weight: 1, cores: 4, connections: 2, rate: null }, 4), '25 % (weight 1) · 2 connections');
  assert.equal(clientShareText({ weight: 4, cores: 4, connections: null, rate: 749.6 }, 6), '67 % (weight 4: its cores) · 750 req/s');
  assert.equal(clientShareText({ weight: 2, cores: null, connections: null, rate: null }, 2), '100 % (weight 2)');
});

test('a clock offset: signed, with its uncertainty, in digits that mean something', () => {
  assert.equal(clockOffsetText({ offsetMs: 1.25, rttMs: 0.22, uncertaintyMs: 0.112, probes: 8 }), '+1.25 ms ± 0.112 ms');
  assert.equal(clockOffsetText({ offsetMs: -0.0304, rttMs: 0.2, uncertaintyMs: 7.5, probes: 8 }), '−0.030 ms ± 7.50 ms');
  assert.equal(clockOffsetText({ offsetMs: -250.4, rttMs: 0.2, uncertaintyMs: 120, probes: 8 }), '−250 ms ± 120 ms');
});

test('Per client: the requests and latency charts gain a line per client; the others stay as they are', () => {
  const charts = perClientCharts([
    { index: 0, name: 'a' },
    { index: 1, name: 'b' },
  ]);
  const rps = charts.find((chart) => chart.id === 'rps')!;
  const latency = charts.find((chart) => chart.id === 'latency')!;
  assert.deepEqual(rps.series.map((series) => series.label), ['req/s', 'scheduled/s', 'a req/s', 'b req/s']);
  assert.deepEqual(latency.series.map((series) => series.label), ['p50', 'p90', 'p99', 'max', 'a p99', 'b p99']);
  assert.deepEqual(charts.filter((chart) => chart.id !== 'rps' && chart.id !== 'latency'), RUN_CHARTS.filter((chart) => chart.id !== 'rps' && chart.id !== 'latency'));

  const point = { rps: 300, countsPerS: { scheduled: 320, requests: 300, bytes: 4300 }, p50Us: 100, p90Us: 200, p99Us: 900, clients: [{ clientIndex: 1, rps: 200, p99Us: 1500 }, { clientIndex: 0, rps: 100, p99Us: null }] } as LivePoint;
  assert.deepEqual(rps.series.map((series) => series.value(point)), [300, 320, 100, 200]);
  assert.deepEqual(latency.series.map((series) => series.value(point)), [0.1, 0.2, 0.9, null, null, 1.5]);
  // A point without the breakdown (one client, or older) leaves the client lines empty.
  assert.deepEqual(rps.series.map((series) => series.value({ ...point, clients: undefined })), [300, 320, null, null]);
});
