// The charts of a server runtime's own figures, without a browser (run-charts.ts): the GC charts (a JVM's
// or a Node server's) and a Node server's event-loop chart are added after the server threads chart only for a session whose
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

test("a Node server's context switches chart draws, beside the waits, how many of them its event-loop monitor's timer may be; a JVM's does not", () => {
  const switches = (runtime: { gc: boolean; eventLoop: boolean }) => withRuntimeCharts(RUN_CHARTS, runtime).find((chart) => chart.id === 'server-switches')!;
  const point = { server: { voluntarySwitchesPerS: 400, involuntarySwitchesPerS: 3, monitorWakesPerS: 95 } } as unknown as LivePoint;
  assert.deepEqual(switches({ gc: true, eventLoop: true }).series.map((series) => series.value(point)), [400, 3, 95]);
  assert.match(switches({ gc: true, eventLoop: true }).series[2]!.label, /monitor/);
  assert.deepEqual(switches({ gc: true, eventLoop: false }).series.map((series) => series.value(point)), [400, 3]);
  assert.equal(RUN_CHARTS.find((chart) => chart.id === 'server-switches')!.series.length, 2, 'the shared list is left as it was');
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
