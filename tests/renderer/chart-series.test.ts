// The rules the live and replay charts draw by (renderer/src/common/chart-series.ts): no line across
// the pause between two steps or to a drain long after its window, a lone value drawn as a dot (a
// one-second run), and close steps' labels in rows of their own.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LivePoint } from '../../app/runs/runs.ts';
import { labelRows, seriesPoints, standsAlone } from '../../renderer/src/common/chart-series.ts';

const point = (t: number, step: number, rps = 100): LivePoint => ({
  sessionId: 1, step, t, at: t * 1000, warmup: false, rps, errorsPerS: 0, p50Us: 1, p90Us: 2, p99Us: 3,
  clientCpu: 0, eventLoopLagMs: 0, serverCpu: null, serverRssBytes: null, serverMemUsedBytes: null, rxBytesPerS: null, txBytesPerS: null,
});

test('the line breaks between steps and at a pause, not between the seconds of one step', () => {
  // Step 0 for 3 s, a 5 s pause, step 1 for 2 s; then step 2 starting right after step 1.
  const points = [point(1, 0), point(2, 0), point(3, 0), point(9, 1), point(10, 1), point(11, 2)];
  const data = seriesPoints(points, 0, (p) => p.rps);
  assert.deepEqual(data.filter((xy) => xy.y === null).map((xy) => xy.x), [6, 10.5]);
  assert.equal(data.length, points.length + 2);
});

test('appending continues the same way: the break falls between the last drawn point and the new one', () => {
  const points = [point(1, 0), point(2, 0), point(8, 1)];
  assert.deepEqual(seriesPoints(points, 2, (p) => p.rps), [{ x: 5, y: null }, { x: 8, y: 100 }]);
  assert.deepEqual(seriesPoints(points, 1, (p) => p.rps), [{ x: 2, y: 100 }, { x: 5, y: null }, { x: 8, y: 100 }]);
});

test('a value with no neighbour is drawn alone (a one-second run shows as a dot)', () => {
  const one = seriesPoints([point(1, 0)], 0, (p) => p.rps);
  assert.equal(standsAlone(one, 0), true);
  const two = seriesPoints([point(1, 0), point(2, 0)], 0, (p) => p.rps);
  assert.deepEqual([standsAlone(two, 0), standsAlone(two, 1)], [false, false]);
  const paused = seriesPoints([point(1, 0), point(2, 0), point(9, 1)], 0, (p) => p.rps);
  assert.deepEqual(paused.map((_, i) => standsAlone(paused, i)), [false, false, false, true]);
});

test('close step labels go into rows of their own; labels with room share the first row', () => {
  // Four steps 30 px apart with labels 60 px wide: the first three rows, then back to the first.
  assert.deepEqual(labelRows([0, 30, 60, 90], [60, 60, 60, 60]), [0, 1, 2, 0]);
  assert.deepEqual(labelRows([0, 100, 200], [60, 60, 60]), [0, 0, 0]);
  assert.deepEqual(labelRows([], []), []);
});
