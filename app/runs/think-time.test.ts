import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeLoad, LoadProfile, profileFieldErrors } from './load-profile.ts';
import { describeThinkTime, meanThinkMs, ThinkTime, thinkPauseMs } from './think-time.ts';

const profile = (load: Record<string, unknown>) => ({ target: 'http://10.0.0.3:8080', request: { path: '/hello' }, load });

test('pauses: fixed, uniform between its bounds, and siege -d1 in whole seconds (0 or 1 s, half the time each)', () => {
  assert.equal(thinkPauseMs(ThinkTime.parse({ kind: 'fixed', ms: 250 }), () => 0.7), 250);
  const uniform = ThinkTime.parse({ kind: 'uniform', minMs: 100, maxMs: 300 });
  assert.deepEqual([0, 0.5].map((u) => thinkPauseMs(uniform, () => u)), [100, 200]);
  const siege = ThinkTime.parse({ kind: 'uniform', maxMs: 1000, roundToMs: 1000 });
  assert.deepEqual([0, 0.49, 0.5, 0.99].map((u) => thinkPauseMs(siege, () => u)), [0, 0, 1000, 1000]);
  const drawn = Array.from({ length: 2000 }, () => thinkPauseMs(siege));
  assert.ok(drawn.every((ms) => ms === 0 || ms === 1000));
  const ones = drawn.filter((ms) => ms === 1000).length;
  assert.ok(ones > 800 && ones < 1200, `${ones} of 2000 pauses were 1 s`);
  assert.equal(meanThinkMs(siege), 500);
  assert.equal(meanThinkMs(uniform), 200);
});

test('a closed load takes a think time with pipelining 1; its words name it', () => {
  const parsed = LoadProfile.parse(profile({ model: 'closed', connections: 100, requests: 10_000, thinkTime: { kind: 'uniform', maxMs: 1000, roundToMs: 1000 } }));
  assert.deepEqual(parsed.load.model === 'closed' && parsed.load.thinkTime, { kind: 'uniform', minMs: 0, maxMs: 1000, roundToMs: 1000 });
  assert.equal(describeLoad(parsed.load), 'c=100, 10000 requests, think 0–1 s, rounded to 1 s');
  assert.equal(describeThinkTime(ThinkTime.parse({ kind: 'fixed', ms: 1500 })), 'think 1.5 s');
  assert.equal(describeThinkTime(ThinkTime.parse({ kind: 'uniform', minMs: 50, maxMs: 200 })), 'think 50–200 ms');
  assert.deepEqual(profileFieldErrors(profile({ model: 'closed', connections: 2, durationS: 5, pipelining: 4, thinkTime: { kind: 'fixed', ms: 10 } })), {
    'load.pipelining': 'must be 1 with a think time: a connection pauses between an answer and its next request',
  });
  assert.equal(profileFieldErrors(profile({ model: 'closed', connections: 2, durationS: 5, thinkTime: { kind: 'uniform', minMs: 500, maxMs: 100 } }))['load.thinkTime.maxMs'], 'must be greater than the shortest pause');
  assert.equal(profileFieldErrors(profile({ model: 'closed', connections: 2, durationS: 5, thinkTime: { kind: 'fixed', ms: 0 } }))['load.thinkTime.ms'], 'must be greater than 0');
  assert.ok(profileFieldErrors(profile({ model: 'closed', connections: 2, durationS: 5, thinkTime: { kind: 'normal', ms: 5 } }))['load.thinkTime.kind']);
  // The open model has no think time: its requests leave on schedule.
  assert.ok(profileFieldErrors(profile({ model: 'open', rate: 10, durationS: 5, thinkTime: { kind: 'fixed', ms: 5 } }))['load']);
});
