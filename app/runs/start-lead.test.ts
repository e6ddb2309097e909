// The coordinated start's lead grows with the slowest client's measured setup, between its floor
// and its ceiling; without a measurement it is the floor.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { coordinatedStartLeadMs, START_LEAD_CEILING_MS, START_LEAD_FLOOR_MS } from './start-lead.ts';

test('fast clients get the floor; a slow one sets the lead for all', () => {
  assert.equal(coordinatedStartLeadMs([120, 180]), START_LEAD_FLOOR_MS);
  // 2 × 1400 ms + 500 ms margin.
  assert.equal(coordinatedStartLeadMs([150, 1400, 300]), 3300);
  assert.equal(coordinatedStartLeadMs([150.2, 1000.3]), 2501);
});

test('a very slow client is capped at the ceiling', () => {
  assert.equal(coordinatedStartLeadMs([200, 30_000]), START_LEAD_CEILING_MS);
});

test('unmeasured (or unusable) times fall back to the floor, measured ones still count', () => {
  assert.equal(coordinatedStartLeadMs([]), START_LEAD_FLOOR_MS);
  assert.equal(coordinatedStartLeadMs([undefined, undefined]), START_LEAD_FLOOR_MS);
  assert.equal(coordinatedStartLeadMs([undefined, Number.NaN, -5]), START_LEAD_FLOOR_MS);
  assert.equal(coordinatedStartLeadMs([undefined, 2000]), 4500);
});
