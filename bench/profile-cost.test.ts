// The profile-cost bench's arithmetic: its run order, its pairs and its verdict from the cost's interval.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { abbaOrder, countFrom, cpuPerAnswerUs, pairRatios, profileCostVerdict, profileCpuVerdict } from './profile-cost.ts';

const interval = (ratio: number, low: number, high: number) => ({ ratio, low, high });

test('the runs go on, off, off, on in each block, so a drift weighs on both sides alike', () => {
  assert.deepEqual(abbaOrder(2), [true, false, false, true, true, false, false, true]);
});

test('adjacent runs pair as on over off where they differ (the cost) and first over second where alike (the spread)', () => {
  const run = (profile: boolean, rps: number, p99Us: number) => ({ profile, rps, p99Us, cpuPerAnswerUs: 1e6 / rps });
  const { cost, sameSpread } = pairRatios([run(true, 90, 110), run(false, 100, 100), run(false, 110, 100), run(true, 99, 105), run(true, 99, 105)]);
  // on/off pairs: (0,1) 0.9, (2,3) 0.9 → 0.9, no spread; alike pairs: (1,2) 100/110, (3,4) 1.
  assert.ok(Math.abs(cost.rps!.ratio - 0.9) < 1e-9 && Math.abs(cost.rps!.high - 0.9) < 1e-9);
  assert.ok(Math.abs(cost.p99!.ratio - Math.sqrt(1.1 * 1.05)) < 1e-9, 'the geometric mean of 1.1 and 1.05');
  assert.ok(cost.p99!.low < cost.p99!.ratio && cost.p99!.ratio < cost.p99!.high);
  assert.ok(Math.abs(sameSpread.rps - (1 - 100 / 110) / 2) < 1e-9);
  assert.equal(sameSpread.p99, 0);
  assert.ok(Math.abs(cost.cpu!.ratio - 1 / 0.9) < 1e-9, 'CPU per answer pairs as on over off too');
});

test("a run without the server's CPU leaves the CPU interval and no other", () => {
  const run = (profile: boolean, rps: number, cpuPerAnswerUs: number) => ({ profile, rps, p99Us: 100, cpuPerAnswerUs });
  const { cost } = pairRatios([run(true, 90, 55), run(false, 100, 50), run(false, 100, Number.NaN), run(true, 90, 60), run(true, 90, 60), run(false, 100, 50)]);
  // on/off pairs: (0,1) cpu 1.1, (2,3) unknown, (4,5) 1.2 → two CPU pairs, three req/s pairs.
  assert.ok(Math.abs(cost.cpu!.ratio - Math.sqrt(1.1 * 1.2)) < 1e-9);
  assert.ok(Math.abs(cost.rps!.ratio - 0.9) < 1e-9);
});

test("CPU per answer: the measured seconds' CPU time over their answers; unknown when a second lacks the server", () => {
  const second = (phase: string, processCpu: number | null, requests: number, durationMs = 1000) => ({ phase, durationMs, requests, serverMetrics: { processCpu } });
  // Warm-up and drain are left out: 0.5 core for 1 s and 0.25 core for 2 s over 1000 answers is 1000 µs each.
  assert.equal(cpuPerAnswerUs([second('warmup', 1, 10), second('measure', 0.5, 400), second('measure', 0.25, 600, 2000), second('drain', 1, 5)]), 1000);
  assert.ok(Number.isNaN(cpuPerAnswerUs([second('measure', 0.5, 400), second('measure', null, 600)])));
  assert.ok(Number.isNaN(cpuPerAnswerUs([second('measure', 0.5, 0)])), 'no answers, no figure');
});

test('the verdict: met with the whole interval within 2 %, missed with the whole of one beyond, else not settled', () => {
  const within = interval(1, 0.99, 1.01);
  assert.equal(profileCostVerdict({ rps: interval(0.995, 0.985, 1.005), p99: within, cpu: within }), 'met');
  assert.equal(profileCostVerdict({ rps: interval(0.9, 0.88, 0.92), p99: within, cpu: within }), 'missed');
  assert.equal(profileCostVerdict({ rps: within, p99: interval(1.1, 1.05, 1.15), cpu: within }), 'missed');
  assert.equal(profileCostVerdict({ rps: interval(0.97, 0.93, 1.01), p99: within, cpu: within }), 'not settled', 'the interval straddles the goal');
  assert.equal(profileCostVerdict({ rps: within, p99: interval(1.0, 0.95, 1.05), cpu: within }), 'not settled');
  assert.equal(profileCostVerdict({ rps: null, p99: within, cpu: within }), 'not settled', 'too few pairs for an interval');
});

test("the server's work: met with CPU per answer wholly within 2 % more, missed wholly beyond, else not settled", () => {
  const within = interval(1, 0.99, 1.01);
  assert.equal(profileCpuVerdict({ rps: null, p99: null, cpu: interval(1.005, 0.995, 1.015) }), 'met', 'the req/s and p99 intervals have no say');
  assert.equal(profileCpuVerdict({ rps: within, p99: within, cpu: interval(1.06, 1.03, 1.09) }), 'missed');
  assert.equal(profileCpuVerdict({ rps: within, p99: within, cpu: interval(1.01, 0.99, 1.03) }), 'not settled');
  assert.equal(profileCpuVerdict({ rps: within, p99: within, cpu: null }), 'not settled');
});

test('BENCHLAB_PROFILE_COST_BLOCKS asks for more blocks; anything but a whole number of 2 or more is refused', () => {
  const blocks = (text?: string) => countFrom('BENCHLAB_PROFILE_COST_BLOCKS', 8, text === undefined ? {} : { BENCHLAB_PROFILE_COST_BLOCKS: text });
  assert.equal(blocks(), 8);
  assert.equal(blocks(''), 8);
  assert.equal(blocks('24'), 24);
  assert.throws(() => blocks('1'), /BENCHLAB_PROFILE_COST_BLOCKS must be a whole number of 2 or more, got "1"/);
  assert.throws(() => blocks('many'), /got "many"/);
});
