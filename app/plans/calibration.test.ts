// Tests of the calibration's rules: what "sustains" means for a ramp step, the capacity that
// follows from the ramp, the steps' rates, the probe and ramp profiles, and the recorded words.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { LoadProfile } from '../runs/load-profile.ts';
import type { RunSummary } from '../runs/run-summary-schema.ts';
import { CALIBRATION_TIMEOUT_MS, capacityOf, capacityProfileProblem, capacityStepRates, CapacitySteps, judgeRampStep, P99_FLOOR_MS, probeProfile, profileAtRates, RAMP_FRACTIONS, rampProfile, rampRates } from './calibration.ts';
import { describeCalibration, describeRamp, recordedCalibrationOf, type RampStep } from '../runs/calibration-record.ts';
import { RECORDED_CALIBRATION } from '../../tests/support/calibration-seed.ts';

const profile = LoadProfile.parse({
  target: 'http://10.0.0.2:8080',
  request: { method: 'GET', path: '/file', timeoutMs: 60_000 },
  load: { model: 'open', rate: 1, durationS: 30 },
});

type Judged = Pick<RunSummary, 'requests' | 'non2xx' | 'p99Us' | 'books'>;
function summary(scheduled: number, answered: number, p99Ms: number | null, more: Partial<Judged> = {}): Judged {
  return {
    requests: answered,
    non2xx: 0,
    p99Us: p99Ms === null ? null : p99Ms * 1000,
    books: { scheduled, answered, errors: 0, timeouts: scheduled - answered, notSent: 0, inFlight: 0, balanced: true },
    ...more,
  };
}

const step = (rate: number, sustained: boolean): RampStep => ({ rate, answeredShare: sustained ? 1 : 0.5, p99Us: 1000, sustained });

describe('a ramp step sustains its rate', () => {
  test('when nearly every scheduled request is answered without error and p99 has not exploded', () => {
    assert.equal(judgeRampStep(1000, summary(3000, 3000, 2), null).sustained, true);
    assert.equal(judgeRampStep(1000, summary(3000, 2985, 2), 2000).sustained, true, '99.5 % answered');
    assert.equal(judgeRampStep(1000, summary(3000, 2960, 2), 2000).sustained, false, '98.7 % answered');
  });

  test('non-2xx answers and requests never sent count against it', () => {
    assert.equal(judgeRampStep(1000, summary(3000, 3000, 2, { non2xx: 100 }), 2000).sustained, false);
    const notSent = summary(3000, 2900, 2);
    notSent.books = { ...notSent.books!, timeouts: 0, notSent: 100 };
    assert.equal(judgeRampStep(1000, notSent, 2000).sustained, false);
  });

  test('p99 may grow up to five times the lowest step’s, or up to the floor, whichever is higher', () => {
    assert.equal(judgeRampStep(1000, summary(3000, 3000, 60), 1000).sustained, true, 'under the floor');
    assert.equal(judgeRampStep(1000, summary(3000, 3000, P99_FLOOR_MS + 1), 1000).sustained, false, 'past the floor and 5× the lowest');
    assert.equal(judgeRampStep(1000, summary(3000, 3000, 400), 90_000).sustained, true, 'within 5× a slow lowest step');
    assert.equal(judgeRampStep(1000, summary(3000, 3000, 460), 90_000).sustained, false);
  });

  test('a step with nothing scheduled or no latency sustains nothing', () => {
    assert.equal(judgeRampStep(1000, summary(0, 0, 1), null).sustained, false);
    assert.equal(judgeRampStep(1000, summary(3000, 3000, null), null).sustained, false);
  });

  test("the lowest step has no step to grow from: its p99 is held to the probe's, or the floor", () => {
    assert.equal(judgeRampStep(1000, summary(3000, 3000, 158), null, 400_000).sustained, true, 'below the probe at full speed');
    assert.equal(judgeRampStep(1000, summary(3000, 3000, 158), null, 90_000).sustained, false, "past the floor and the probe's");
    assert.equal(judgeRampStep(1000, summary(3000, 3000, 158), null).sustained, false, 'no probe: the floor');
  });
});

describe('the capacity', () => {
  test('is the highest rate sustained before the first step that was not', () => {
    assert.deepEqual(capacityOf([step(500, true), step(600, true), step(700, false), step(800, true)]), { capacity: 600, atLeast: false });
  });

  test('is at least the top rate judged when no step failed (all sustained, or the time limit cut the ramp), and none when the lowest failed', () => {
    assert.deepEqual(capacityOf([step(500, true), step(600, true)]), { capacity: 600, atLeast: true });
    assert.equal(capacityOf([step(500, false)]), null);
  });

  test('gives each step its multiple of it, in whole requests/s', () => {
    assert.deepEqual(capacityStepRates(1240, [0.5, 1.3, 2, 3.5]), [620, 1612, 2480, 4340]);
    assert.deepEqual(capacityStepRates(3, [0.1]), [1]);
  });
});

describe('the probe and the ramp', () => {
  test('the probe is a short closed-model run of the plan’s request with the calibration’s timeout', () => {
    const probe = probeProfile(profile);
    assert.equal(probe.load.model, 'closed');
    assert.equal(probe.request.path, '/file');
    assert.equal(probe.request.timeoutMs, CALIBRATION_TIMEOUT_MS);
    assert.deepEqual(probe.sweep, []);
    assert.ok(LoadProfile.safeParse(probe).success);
  });

  test('the ramp rises around the probe’s rate, one open-model step per rate', () => {
    const rates = rampRates(2000);
    assert.equal(rates.length, RAMP_FRACTIONS.length);
    assert.ok(rates[0]! < 2000 && rates.at(-1)! > 2000);
    assert.ok(rates.every((rate, index) => index === 0 || rate > rates[index - 1]!));
    const ramp = rampProfile(profile, rates);
    assert.deepEqual(ramp.sweep, rates);
    assert.equal(ramp.load.model, 'open');
    assert.ok(LoadProfile.safeParse(ramp).success);
    // A slow server's probe still gives rising, whole rates.
    const slow = rampRates(3);
    assert.ok(slow.every((rate, index) => Number.isInteger(rate) && rate >= 1 && (index === 0 || rate > slow[index - 1]!)));
  });

  test('the plan’s profile takes the steps’ rates as its sweep', () => {
    const atRates = profileAtRates({ ...profile, load: { model: 'open', requests: 100, durationS: 30 } }, [620, 1612]);
    assert.deepEqual(atRates.sweep, [620, 1612]);
    assert.equal(atRates.load.model === 'open' && atRates.load.rate, 620);
    assert.ok(LoadProfile.safeParse(atRates).success);
  });

  test('capacity steps need the open model and no sweep of their own', () => {
    assert.equal(capacityProfileProblem(profile), null);
    assert.equal(capacityProfileProblem({ ...profile, sweep: [1, 2] })?.field, 'sweep');
    assert.equal(capacityProfileProblem({ load: { model: 'closed', connections: 5, pipelining: 1, durationS: 5 }, sweep: [] })?.field, 'load');
  });

  test('the spec needs a reference and at least one multiple, and bounds the calibration’s length', () => {
    assert.equal(CapacitySteps.parse({ reference: { templateId: 'node', variant: 'sync' }, times: [1.5] }).maxS, 60);
    assert.equal(CapacitySteps.safeParse({ reference: { templateId: 'node', variant: 'sync' }, times: [] }).success, false);
    assert.equal(CapacitySteps.safeParse({ reference: { templateId: 'node', variant: 'sync' }, times: [1], maxS: 5 }).success, false);
  });
});

describe('the recorded calibration', () => {
  const recorded = RECORDED_CALIBRATION;

  test('reads back from a session’s config, and nothing from one without it', () => {
    assert.deepEqual(recordedCalibrationOf({ calibration: recorded }), recorded);
    assert.equal(recordedCalibrationOf({}), null);
    assert.equal(recordedCalibrationOf({ calibration: { capacity: 'fast' } }), null);
  });

  test('says the capacity, where and when it was measured, and the rates it chose', () => {
    assert.equal(
      describeCalibration(recorded),
      'steps from a capacity of 1,240 req/s measured on Node.js · sync at 09:58 UTC, 1 Mar 2026: ×1.52 = 1,885 req/s, ×3.48 = 4,315 req/s',
    );
    assert.match(describeCalibration({ ...recorded, atLeast: true }), /capacity of at least 1,240 req\/s/);
    assert.equal(describeRamp(recorded.ramp), '1,170 ✓, 1,240 ✓, 1,300 ✗ (p99 412 ms, 97.0 % answered)');
  });
});
