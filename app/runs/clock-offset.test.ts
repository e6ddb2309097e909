import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CLOCK_RESOLUTION_MS, ClockOffset, estimateClockOffset, type ClockProbe } from './clock-offset.ts';

/**
 * A probe through a simulated link: Benchlab sends at `sentMs` (its clock), the ping takes `outMs`
 * to arrive, the host reads its clock (Benchlab's time + `trueOffsetMs`), the pong takes `backMs`.
 */
function probeThrough(trueOffsetMs: number, sentMs: number, outMs: number, backMs: number): ClockProbe {
  return { sentMs, hostMs: sentMs + outMs + trueOffsetMs, receivedMs: sentMs + outMs + backMs };
}

function assertWithinUncertainty(estimate: ClockOffset, trueOffsetMs: number): void {
  const error = Math.abs(estimate.offsetMs - trueOffsetMs);
  assert.ok(error <= estimate.uncertaintyMs, `error ${error} ms exceeds the stated ±${estimate.uncertaintyMs} ms`);
}

test('symmetric delays give the true offset, host clock ahead or behind', () => {
  for (const trueOffsetMs of [0, 1234.567, -98_765.4321]) {
    const estimate = estimateClockOffset([probeThrough(trueOffsetMs, 1_700_000_000_000, 0.4, 0.4)]);
    // Epoch milliseconds as doubles carry about a quarter of a microsecond.
    assert.ok(Math.abs(estimate.offsetMs - trueOffsetMs) < 1e-3, `${estimate.offsetMs} vs ${trueOffsetMs}`);
    assert.ok(Math.abs(estimate.rttMs - 0.8) < 1e-3);
    assert.ok(Math.abs(estimate.uncertaintyMs - (0.4 + CLOCK_RESOLUTION_MS)) < 1e-3);
    assert.equal(estimate.probes, 1);
  }
});

test('asymmetric delays bias the estimate, but never beyond half the round trip', () => {
  for (const trueOffsetMs of [250, -250]) {
    // All of the round trip one way, then all of it the other way: the worst cases.
    for (const [outMs, backMs] of [
      [3, 0],
      [0, 3],
      [2.5, 0.5],
    ] as const) {
      const estimate = estimateClockOffset([probeThrough(trueOffsetMs, 5_000, outMs, backMs)]);
      assert.notEqual(estimate.offsetMs, trueOffsetMs);
      assertWithinUncertainty(estimate, trueOffsetMs);
      assert.ok(Math.abs(estimate.uncertaintyMs - (1.5 + CLOCK_RESOLUTION_MS)) < 1e-9);
    }
  }
});

test('the one fast probe among slow ones is kept, and bounds the offset tightly', () => {
  const trueOffsetMs = -42.125;
  const probes: ClockProbe[] = [];
  // Slow, lopsided probes (a busy link, a queued ssh channel) and one fast probe in the middle.
  for (let index = 0; index < 16; index++) {
    const sentMs = 10_000 + index * 20;
    probes.push(index === 9 ? probeThrough(trueOffsetMs, sentMs, 0.15, 0.05) : probeThrough(trueOffsetMs, sentMs, 8 + index, 1 + (index % 3)));
  }
  const estimate = estimateClockOffset(probes);
  assert.ok(Math.abs(estimate.rttMs - 0.2) < 1e-9, `kept rtt ${estimate.rttMs}`);
  assert.equal(estimate.probes, 16);
  assertWithinUncertainty(estimate, trueOffsetMs);
  assert.ok(estimate.uncertaintyMs < 0.11, `uncertainty ${estimate.uncertaintyMs}`);
  // Averaging the probes instead would have been off by several milliseconds.
  const averaged = probes.reduce((sum, probe) => sum + probe.hostMs - (probe.sentMs + probe.receivedMs) / 2, 0) / probes.length;
  assert.ok(Math.abs(averaged - trueOffsetMs) > 3);
});

test('randomised links: every estimate stays within its stated uncertainty of the true offset', () => {
  let seed = 7;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  for (let trial = 0; trial < 500; trial++) {
    const trueOffsetMs = (random() - 0.5) * 20_000;
    const probes = Array.from({ length: 1 + Math.floor(random() * 16) }, (_, index) =>
      probeThrough(trueOffsetMs, 1_700_000_000_000 + index * 10, random() * random() * 30, random() * random() * 30),
    );
    assertWithinUncertainty(estimateClockOffset(probes), trueOffsetMs);
  }
});

test('unusable probes are skipped; none usable is a clear error', () => {
  const good = probeThrough(10, 100, 1, 1);
  const estimate = estimateClockOffset([{ sentMs: 100, hostMs: Number.NaN, receivedMs: 101 }, { sentMs: 200, hostMs: 150, receivedMs: 199 }, good]);
  assert.equal(estimate.offsetMs, 10);
  assert.equal(estimate.probes, 3);
  assert.throws(() => estimateClockOffset([]), /no clock probe came back/);
});
