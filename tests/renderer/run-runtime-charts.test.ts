// The charts of a server runtime's own figures, without a browser (run-charts.ts): a JVM's GC charts and
// a Node server's event-loop chart are added after the server threads chart only for a session whose
// readings have them, and each draws its figure from LivePoint.server.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LivePoint } from '../../app/runs/runs.ts';
import { RUN_CHARTS, withRuntimeCharts } from '../../renderer/src/features/runs/run-charts.ts';

const ids = (charts: ReadonlyArray<{ id: string }>) => charts.map((chart) => chart.id);

test("a JVM's GC charts and a Node server's event-loop chart follow the server threads chart, only when the readings have them", () => {
  assert.deepEqual(ids(withRuntimeCharts(RUN_CHARTS, { gc: false, eventLoop: false })), ids(RUN_CHARTS));
  const jvm = ids(withRuntimeCharts(RUN_CHARTS, { gc: true, eventLoop: false }));
  const threads = jvm.indexOf('server-threads');
  assert.deepEqual(jvm.slice(threads + 1, threads + 4), ['server-gc', 'server-gc-count', 'server-heap']);
  assert.ok(!jvm.includes('server-event-loop'));
  const node = ids(withRuntimeCharts(RUN_CHARTS, { gc: false, eventLoop: true }));
  assert.equal(node[node.indexOf('server-threads') + 1], 'server-event-loop');
  assert.ok(!node.includes('server-gc'));
});

test('each runtime chart draws its figure of the second, in its unit; a second without it is a gap', () => {
  const server = { gcPauses: 3, gcPauseMs: 12.5, gcLongestPauseMs: 8, heapAfterGcBytes: 40e6, eventLoopDelayP50Ms: 0.2, eventLoopDelayP99Ms: 4, eventLoopDelayMaxMs: 30 };
  const point = { server } as unknown as LivePoint;
  const charts = withRuntimeCharts([], { gc: true, eventLoop: true });
  const values = Object.fromEntries(charts.map((chart) => [chart.id, chart.series.map((series) => series.value(point))]));
  assert.deepEqual(values, { 'server-gc': [12.5, 8], 'server-gc-count': [3], 'server-heap': [40], 'server-event-loop': [0.2, 4, 30] });
  const gap = {} as LivePoint;
  assert.ok(charts.every((chart) => chart.series.every((series) => series.value(gap) === null)));
});
