import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pause, play, positionAt, seek, setSpeed, startClock, visibleCount } from './replay.ts';

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

test('points become visible once their second has passed (a point’s t is the end of its second)', () => {
  const points = [1, 2, 3, 6].map((t) => ({ t }) as never);
  assert.equal(visibleCount(points, 0), 0);
  assert.equal(visibleCount(points, 1), 1);
  assert.equal(visibleCount(points, 2.5), 2);
  assert.equal(visibleCount(points, 6), 4);
});
