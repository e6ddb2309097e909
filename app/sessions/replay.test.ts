import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pause, play, pointFromStored, positionAt, seek, setSpeed, startClock, visibleCount } from './replay.ts';

test('a stored second becomes the live point the stream sent', () => {
  const point = pointFromStored(
    {
      second: 3,
      requests: 500,
      errors: { timeout: 2, reset: 1 },
      p50Us: 100,
      p90Us: 200,
      p99Us: 900,
      clientMetrics: { cpu: 0.5, eventLoopLagMs: 4, durationMs: 500, at: 1234 },
      serverMetrics: { cpu: 0.25, processRssBytes: 10, memUsedBytes: 20, rxBytesPerS: 30, txBytesPerS: 40 },
    },
    { sessionId: 7, step: 1, offsetS: 10, startedAtMs: 0 },
  );
  assert.deepEqual(point, {
    sessionId: 7, step: 1, t: 13, at: 1234, warmup: false, rps: 1000, errorsPerS: 6, p50Us: 100, p90Us: 200, p99Us: 900,
    clientCpu: 0.5, eventLoopLagMs: 4, serverCpu: 0.25, serverRssBytes: 10, serverMemUsedBytes: 20, rxBytesPerS: 30, txBytesPerS: 40,
  });
  const bare = pointFromStored({ second: 0, requests: 5, errors: {}, p50Us: null, p90Us: null, p99Us: null, clientMetrics: null, serverMetrics: null }, { sessionId: 1, step: 0, offsetS: 0, startedAtMs: 5000 });
  assert.equal(bare.rps, 5);
  assert.equal(bare.at, 6000);
  assert.equal(bare.serverCpu, null);
});

test('the replay clock plays, pauses, seeks and changes speed without jumps', () => {
  const duration = 100;
  let clock = startClock(1);
  assert.equal(positionAt(clock, 5000, duration), 0);
  clock = play(clock, 1000, duration);
  assert.equal(positionAt(clock, 3000, duration), 2);
  clock = setSpeed(clock, 20, 3000, duration);
  assert.equal(positionAt(clock, 4000, duration), 22);
  clock = pause(clock, 4000, duration);
  assert.equal(positionAt(clock, 9000, duration), 22);
  clock = seek(clock, 50, 9000, duration);
  assert.equal(positionAt(clock, 10_000, duration), 50);
  clock = play(setSpeed(clock, 5, 10_000, duration), 10_000, duration);
  assert.equal(positionAt(clock, 11_000, duration), 55);
  assert.equal(positionAt(clock, 60_000, duration), 100, 'never past the end');
  clock = play(pause(clock, 60_000, duration), 60_000, duration);
  assert.equal(positionAt(clock, 60_000, duration), 0, 'play at the end starts over');
});

test('points become visible once their second has passed', () => {
  const points = [0, 1, 2, 5].map((t) => ({ t }) as never);
  assert.equal(visibleCount(points, 0), 0);
  assert.equal(visibleCount(points, 1), 1);
  assert.equal(visibleCount(points, 2.5), 2);
  assert.equal(visibleCount(points, 6), 4);
});
