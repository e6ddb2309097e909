import assert from 'node:assert/strict';
import { test } from 'node:test';
import { seededRandom } from '../sessions/compare-stats.ts';
import { StepLoad, type ClosedLoad, type OpenLoad } from './load-profile.ts';
import { clientWeights, splitStepLoad } from './load-split.ts';

const closed = (change: Partial<ClosedLoad>): StepLoad => StepLoad.parse({ model: 'closed', connections: 100, durationS: 10, ...change });
const open = (change: Partial<OpenLoad>): StepLoad => StepLoad.parse({ model: 'open', rate: 1000, durationS: 10, ...change });

function parts(load: StepLoad, weights: number[]): StepLoad[] {
  const split = splitStepLoad(load, weights);
  assert.ok(typeof split !== 'string', `expected a split, got: ${String(split)}`);
  return split;
}

const rateOf = (load: StepLoad) => (load.model === 'open' ? load.rate : undefined);
const sum = (values: readonly (number | undefined)[]) => values.reduce<number>((total, value) => total + (value ?? 0), 0);

test('weights: the given one, else the core count, else 1', () => {
  assert.deepEqual(clientWeights([{ weight: 2, cores: 8 }, { cores: 4 }, { cores: null }, { weight: undefined, cores: 0 }]), [2, 4, 1, 1]);
});

test('connections split by weight, largest remainder first, each part a valid load', () => {
  const split = parts(closed({ connections: 10, pipelining: 2 }), [1, 1, 1]);
  assert.deepEqual(split.map((load) => load.connections), [4, 3, 3]);
  assert.ok(split.every((load) => load.model === 'closed' && load.pipelining === 2 && load.durationS === 10));
  assert.deepEqual(parts(closed({ connections: 100 }), [4, 2, 2]).map((load) => load.connections), [50, 25, 25]);
  for (const load of split) assert.ok(StepLoad.safeParse(load).success);
});

test('every client keeps at least one connection, even with a tiny weight', () => {
  assert.deepEqual(parts(closed({ connections: 4 }), [100, 1, 1]).map((load) => load.connections), [2, 1, 1]);
});

test('a fixed request count is split too, never below a part’s connections', () => {
  const split = parts(closed({ connections: 3, requests: 1001, durationS: undefined }), [1, 1]);
  assert.deepEqual(split.map((load) => [load.connections, load.requests]), [[2, 501], [1, 500]]);
  // Plain largest remainder would give the third client 1 request for its 2 connections here.
  assert.deepEqual(parts(closed({ connections: 10, requests: 11, durationS: undefined }), [3, 3, 1]).map((load) => [load.connections, load.requests]), [[4, 5], [4, 4], [2, 2]]);
});

test('the open model splits the rate, requests over a duration and the connection maximum', () => {
  assert.deepEqual(parts(open({ rate: 1000, connections: 10 }), [3, 1]).map((load) => [rateOf(load), load.connections]), [[750, 8], [250, 2]]);
  assert.deepEqual(parts(open({ rate: undefined, requests: 5000, durationS: 10 }), [1, 1, 1]).map((load) => load.requests), [1667, 1667, 1666]);
  const fractional = parts(open({ rate: 2.5 }), [1, 1, 2]).map((load) => rateOf(load)!);
  assert.deepEqual(fractional, [0.625, 0.625, 1.25]);
  const tiny = parts(open({ rate: 2 }), [1, 1, 1]).map((load) => rateOf(load)!);
  assert.ok(tiny.every((rate) => rate > 0));
  assert.ok(Math.abs(sum(tiny) - 2) < 1e-9);
});

test('one client gets the load as it is', () => {
  const load = open({ rate: 333.3 });
  assert.deepEqual(parts(load, [7]), [load]);
});

test('what cannot be split is said in one line', () => {
  assert.equal(splitStepLoad(closed({ connections: 3 }), [1, 1, 1, 1]), '3 connections cannot be split over 4 clients: give at least one connection per client');
  assert.match(splitStepLoad(open({ connections: 1 }), [1, 1]) as string, /^1 connection cannot be split over 2 clients/);
  assert.match(splitStepLoad(open({ rate: undefined, requests: 2 }), [1, 1, 1]) as string, /^2 requests cannot be split over 3 clients/);
  assert.equal(splitStepLoad(closed({}), []), 'the load needs at least one client');
  assert.equal(splitStepLoad(closed({}), [1, 0]), 'every client weight must be a number greater than 0');
});

test('property: whole-unit parts always add up exactly, each at least 1, and follow the weights within one unit', () => {
  const random = seededRandom(15);
  for (let round = 0; round < 2000; round++) {
    const clients = 1 + Math.floor(random() * 16);
    const weights = Array.from({ length: clients }, () => (random() < 0.5 ? 1 + Math.floor(random() * 64) : 0.1 + random() * 10));
    const connections = clients + Math.floor(random() * 5000);
    const requests = random() < 0.5 ? connections + Math.floor(random() * 100_000) : undefined;
    const closedSplit = parts(closed({ connections, ...(requests === undefined ? {} : { requests, durationS: undefined }) }), weights);
    assert.equal(sum(closedSplit.map((load) => load.connections)), connections);
    assert.ok(closedSplit.every((load) => load.connections! >= 1));
    if (requests !== undefined) {
      assert.equal(sum(closedSplit.map((load) => load.requests)), requests);
      assert.ok(closedSplit.every((load) => load.requests! >= load.connections!));
    }
    const quotas = weights.map((weight) => (connections * weight) / sum(weights));
    // Where no share rounds below one, each part is its exact share rounded up or down.
    if (quotas.every((quota) => quota >= 1)) closedSplit.forEach((load, index) => assert.ok(Math.abs(load.connections! - quotas[index]!) < 1));
    const rate = random() < 0.5 ? clients + Math.floor(random() * 100_000) : 0.5 + random() * 5000;
    const openSplit = parts(open({ rate, connections }), weights);
    assert.equal(sum(openSplit.map((load) => load.connections)), connections);
    if (Number.isInteger(rate)) assert.equal(sum(openSplit.map(rateOf)), rate);
    else assert.ok(Math.abs(sum(openSplit.map(rateOf)) - rate) < 1e-6);
    assert.ok(openSplit.every((load) => rateOf(load)! > 0 && StepLoad.safeParse(load).success));
  }
});
