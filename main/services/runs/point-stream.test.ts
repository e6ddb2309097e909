// Tests of the chart point stream's acknowledgement backpressure.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { POINTS_UNACKED_LIMIT, type LivePoint, type LivePoints } from '../../../app/runs/runs.ts';
import { EventBus } from '../event-bus.ts';
import { PointStream } from './point-stream.ts';
import { within } from '../../../tests/support/until.ts';

const point = (t: number): LivePoint => ({
  sessionId: 1,
  step: 0,
  t,
  at: t * 1000,
  warmup: false,
  rps: 100,
  errorsPerS: 0,
  p50Us: 1,
  p90Us: 2,
  p99Us: 3,
  clientCpu: 0.1,
  eventLoopLagMs: 1,
  serverCpu: null,
  serverRssBytes: null,
  serverMemUsedBytes: null,
  rxBytesPerS: null,
  txBytesPerS: null,
});

test('points beyond the unacknowledged limit wait, then go out together on ack', () => {
  const bus = new EventBus();
  const batches: LivePoints[] = [];
  bus.subscribe('runs.points', (batch) => batches.push(batch));
  const stream = new PointStream(bus, 1);
  for (let t = 0; t < POINTS_UNACKED_LIMIT + 5; t++) stream.push(point(t));
  assert.equal(batches.length, POINTS_UNACKED_LIMIT);
  assert.equal(stream.held, 5);
  stream.ack(batches[batches.length - 1]!.seq);
  assert.equal(batches.length, POINTS_UNACKED_LIMIT + 1);
  assert.deepEqual(
    batches[batches.length - 1]!.points.map((p) => p.t),
    [10, 11, 12, 13, 14],
  );
  assert.equal(stream.points().length, POINTS_UNACKED_LIMIT + 5);
  stream.close();
});

test('without any ack for the stall time, held points go out anyway', async () => {
  const bus = new EventBus();
  const batches: LivePoints[] = [];
  bus.subscribe('runs.points', (batch) => batches.push(batch));
  const stream = new PointStream(bus, 1, 50);
  for (let t = 0; t < POINTS_UNACKED_LIMIT + 2; t++) stream.push(point(t));
  assert.equal(stream.held, 2);
  // The held points go out as one more batch once the stall time has passed: wait for that batch.
  await within(
    new Promise<void>((resolve) => {
      const unsubscribe = bus.subscribe('runs.points', () => {
        unsubscribe();
        resolve();
      });
    }),
    'the held points',
    5000,
  );
  assert.equal(batches.length, POINTS_UNACKED_LIMIT + 1);
  assert.equal(stream.held, 0);
  stream.close();
});
