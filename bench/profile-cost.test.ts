// The profile-cost bench's arithmetic: its run order, its pairs and its verdict from the cost's interval.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { abbaOrder, pairRatios, profileCostVerdict } from './profile-cost.ts';

const interval = (ratio: number, low: number, high: number) => ({ ratio, low, high });

test('the runs go on, off, off, on in each block, so a drift weighs on both sides alike', () => {
  assert.deepEqual(abbaOrder(2), [true, false, false, true, true, false, false, true]);
});

test('adjacent runs pair as on over off where they differ (the cost) and first over second where alike (the spread)', () => {
  const run = (profile: boolean, rps: number, p99Us: number) => ({ profile, rps, p99Us });
  const { cost, sameSpread } = pairRatios([run(true, 90, 110), run(false, 100, 100), run(false, 110, 100), run(true, 99, 105), run(true, 99, 105)]);
  // on/off pairs: (0,1) 0.9, (2,3) 0.9 → 0.9, no spread; alike pairs: (1,2) 100/110, (3,4) 1.
  assert.ok(Math.abs(cost.rps!.ratio - 0.9) < 1e-9 && Math.abs(cost.rps!.high - 0.9) < 1e-9);
  assert.ok(Math.abs(cost.p99!.ratio - Math.sqrt(1.1 * 1.05)) < 1e-9, 'the geometric mean of 1.1 and 1.05');
  assert.ok(cost.p99!.low < cost.p99!.ratio && cost.p99!.ratio < cost.p99!.high);
  assert.ok(Math.abs(sameSpread.rps - (1 - 100 / 110) / 2) < 1e-9);
  assert.equal(sameSpread.p99, 0);
});

test('the verdict: met with the whole interval within 2 %, missed with the whole of one beyond, else not settled', () => {
  const within = interval(1, 0.99, 1.01);
  assert.equal(profileCostVerdict({ rps: interval(0.995, 0.985, 1.005), p99: within }), 'met');
  assert.equal(profileCostVerdict({ rps: interval(0.9, 0.88, 0.92), p99: within }), 'missed');
  assert.equal(profileCostVerdict({ rps: within, p99: interval(1.1, 1.05, 1.15) }), 'missed');
  assert.equal(profileCostVerdict({ rps: interval(0.97, 0.93, 1.01), p99: within }), 'not settled', 'the interval straddles the goal');
  assert.equal(profileCostVerdict({ rps: within, p99: interval(1.0, 0.95, 1.05) }), 'not settled');
  assert.equal(profileCostVerdict({ rps: null, p99: within }), 'not settled', 'too few pairs for an interval');
});
