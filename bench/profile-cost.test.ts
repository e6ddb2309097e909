// The profile-cost bench's arithmetic: its run order, its pairs and its verdict against the noise.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { abbaOrder, pairRatios, profileCostVerdict } from './profile-cost.ts';

const figures = (rps: number, p99Us: number, p99Spread = 0, rpsSpread = 0) => ({ rps, p99: p99Us, rpsSpread, p99Spread });

test('the runs go on, off, off, on in each block, so a drift weighs on both sides alike', () => {
  assert.deepEqual(abbaOrder(2), [true, false, false, true, true, false, false, true]);
});

test('adjacent runs pair as on over off where they differ and first over second where alike', () => {
  const run = (profile: boolean, rps: number, p99Us: number) => ({ profile, rps, p99Us });
  const { onOff, sameSame } = pairRatios([run(true, 90, 110), run(false, 100, 100), run(false, 100, 100), run(true, 95, 105), run(true, 95, 105)]);
  // on/off pairs: (0,1) 0.9, (2,3) 0.95 → median 0.925; same pairs: (1,2) 1, (3,4) 1.
  assert.ok(Math.abs(onOff.rps - 0.925) < 1e-9);
  assert.ok(Math.abs(onOff.p99 - 1.075) < 1e-9);
  assert.equal(sameSame.rps, 1);
  assert.equal(sameSame.rpsSpread, 0);
});

test('the verdict: met within 2 %, missed beyond both the goal and the noise, not told apart within the noise', () => {
  assert.equal(profileCostVerdict({ onOff: figures(0.99, 1.01), sameSame: figures(1, 1) }), 'met');
  assert.equal(profileCostVerdict({ onOff: figures(0.9, 1.01), sameSame: figures(1, 1, 0.01, 0.02) }), 'missed');
  assert.equal(profileCostVerdict({ onOff: figures(0.9, 1.01), sameSame: figures(1, 1, 0.01, 0.12) }), 'within the noise');
  assert.equal(profileCostVerdict({ onOff: figures(0.99, 1.2), sameSame: figures(1, 1, 0.05, 0) }), 'missed');
  assert.equal(profileCostVerdict({ onOff: figures(0.99, 1.2), sameSame: figures(1, 1, 0.25, 0) }), 'within the noise');
});
