// The side-by-side profile-cost bench's arithmetic: a round's ratios between its two servers, and
// their intervals over rounds.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { intervals, shareRatios, swappedCost } from './profile-cost-side-by-side.ts';

const near = (actual: number, expected: number) => assert.ok(Math.abs(actual - expected) < 1e-9, `${actual} against ${expected}`);

test("a round's ratios: answers and p99 as they are, CPU per answer of the process and of its main thread", () => {
  // The profiled server answered 990 with 1,010 ms of CPU (1,000 of them on its main thread); the other 1,000 with 1,000 ms (all but 5 on its main thread).
  const ratios = shareRatios({ answers: 990, p99Us: 2040, cpuUs: 1_010_000, mainCpuUs: 1_000_000 }, { answers: 1000, p99Us: 2000, cpuUs: 1_000_000, mainCpuUs: 995_000 });
  near(ratios.rps, 0.99);
  near(ratios.p99, 1.02);
  near(ratios.cpu, 1010 / 990 / (1000 / 1000));
  near(ratios.mainCpu, 1000 / 990 / (995 / 1000));
});

test('the intervals: each figure its own geometric mean over the rounds, none below two rounds', () => {
  const round = (rps: number, cpu: number) => ({ rps, p99: 1, cpu, mainCpu: 1 });
  const both = intervals([round(0.98, 1.01), round(1.0, 1.03)]);
  near(both.rps!.ratio, Math.sqrt(0.98));
  near(both.cpu!.ratio, Math.sqrt(1.01 * 1.03));
  assert.ok(both.rps!.low < both.rps!.ratio && both.rps!.ratio < both.rps!.high, 'two rounds apart give an interval around their mean');
  assert.deepEqual([both.p99!.low, both.p99!.high], [1, 1], 'alike rounds: no spread');
  assert.equal(intervals([round(0.98, 1.01)]).rps, null);
});

test("a cycle's cost: the two swapped rounds' geometric mean, so the servers' own difference cancels", () => {
  // The first server answers 2 % more than the second whatever it does; profiling costs 1 %.
  const firstProfiled = { rps: 1.02 * 0.99, p99: 1, cpu: 1.01 / 1.02, mainCpu: 1 };
  const secondProfiled = { rps: 0.99 / 1.02, p99: 1, cpu: 1.01 * 1.02, mainCpu: 1 };
  const cost = swappedCost(firstProfiled, secondProfiled);
  near(cost.rps, 0.99);
  near(cost.cpu, 1.01);
  near(cost.p99, 1);
});
