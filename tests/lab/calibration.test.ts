// Steps relative to a measured capacity on the lab (instance `calibrate`): a plan whose steps are
// multiples of a capacity first measures it on the reference server (a closed probe, a rising open
// ramp, both sessions of their own), then loads the template at exactly those multiples; each
// session keeps the calibration, and the step at the capacity saturates less than the step at 3.5×
// it. Relations only: the capacity itself depends on how busy the machine is.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { capacityStepRates } from '../../app/plans/calibration.ts';
import { describeCalibration, recordedCalibrationOf } from '../../app/runs/calibration-record.ts';
import type { StoredRun } from '../../app/runs/runs.ts';
import type { Session } from '../../app/sessions/sessions.ts';
import { STUDY_TARGET_PLACEHOLDER } from '../../app/plans/plan-file.ts';
import { openLabBackend, startLabPlan, type LabBackend } from '../support/lab-backend.ts';
import { labSkipReason } from '../support/lab-hosts.ts';

const skip = labSkipReason();
const TIMES = [1, 3.5];

describe('capacity steps on the lab', { skip: skip ?? false }, () => {
  let lab: LabBackend;

  before(async () => {
    lab = await openLabBackend('calibrate', 'benchlab-calibrate-lab-');
  });

  after(async () => {
    if (!lab) return;
    await lab.services.plans.cancel().catch(() => undefined);
    await lab.services.templates.stop(lab.serverId).catch(() => undefined);
    await lab.close();
  });

  test('the calibration measures the reference, the steps are its multiples, and the capacity step saturates less than 3.5× it', async (t) => {
    const started = await startLabPlan(lab, {
      name: 'capacity steps',
      targets: [{ templateId: 'node', variant: 'sync' }],
      // The Gatling study's request, with a short timeout so the overloaded step ends in seconds.
      profile: { target: STUDY_TARGET_PLACEHOLDER, request: { path: '/file', timeoutMs: 2000 }, load: { model: 'open', rate: 1, durationS: 4 }, pauseS: 1 },
      capacity: { reference: { templateId: 'node', variant: 'sync' }, times: TIMES, maxS: 40 },
    });
    assert.equal(started.stages[0]!.kind, 'calibrate', 'the calibration comes first');
    const final = (await lab.services.plans.settled())!;
    const stages = final.stages.map((stage) => `${stage.id}: ${stage.status} ${stage.detail ?? ''}`).join('\n');
    assert.equal(final.status, 'completed', `${final.message ?? ''}\n${stages}`);
    t.diagnostic(stages);
    assert.equal(final.sessionIds.length, 1, 'the calibration’s sessions are not the plan’s');

    const session = await lab.ok<Session>('sessions.get', { id: final.sessionIds[0] });
    const calibration = recordedCalibrationOf(session.config);
    assert.ok(calibration, 'the session keeps the calibration');
    assert.ok(calibration.capacity > 0);
    assert.equal(calibration.reference.templateId, 'node');
    assert.deepEqual(calibration.rates, capacityStepRates(calibration.capacity, TIMES));
    // The capacity is the highest rate of the ramp that sustained, below the first that did not.
    const sustained = calibration.ramp.filter((step) => step.sustained).map((step) => step.rate);
    assert.equal(calibration.capacity, Math.max(...sustained));
    assert.ok(calibration.ramp.every((step, index) => index === 0 || step.rate > calibration.ramp[index - 1]!.rate), 'the ramp rises');
    assert.equal(calibration.sessionIds.length, 2, 'a probe and a ramp, each its own session');
    for (const id of calibration.sessionIds) {
      const own = await lab.ok<Session>('sessions.get', { id });
      assert.ok(own.tags.includes('calibration'), `session ${id} is tagged as a calibration`);
    }

    // Shown where the session is read: its replay, and Compare (beside a session of fixed steps: the probe).
    const said = describeCalibration(calibration);
    assert.equal((await lab.ok<{ run: { calibration?: string | null } }>('replay.load', { sessionId: final.sessionIds[0] })).run.calibration, said);
    const compared = await lab.ok<{ sessions: Array<{ id: number; calibration?: string | null }> }>('compare.open', { sessionIds: [final.sessionIds[0], calibration.sessionIds[0]] });
    assert.deepEqual(compared.sessions.map((entry) => entry.calibration ?? null), [said, null]);

    const runs = (await lab.ok<StoredRun[]>('runs.list', { sessionId: final.sessionIds[0] })).sort((a, b) => a.ordinal - b.ordinal);
    assert.equal(runs.length, TIMES.length);
    const rateOf = (run: StoredRun) => (run.step.load as { rate?: number }).rate;
    assert.deepEqual(runs.map(rateOf), calibration.rates, 'each step runs its multiple of the capacity');
    const [atCapacity, overloaded] = runs.map((run) => run.summary!) as [NonNullable<StoredRun['summary']>, NonNullable<StoredRun['summary']>];
    // Saturation: the share of the step's schedule answered within its window, and what failed or was never sent.
    const keptUp = (summary: typeof atCapacity, rate: number) => summary.requestsPerSecond / rate;
    const lost = (summary: typeof atCapacity) => (summary.failed + (summary.books?.notSent ?? 0)) / (summary.books?.scheduled ?? 1);
    t.diagnostic(
      `capacity ${calibration.capacity} req/s; at 1×: ${atCapacity.requestsPerSecond.toFixed(0)} req/s, lost ${(lost(atCapacity) * 100).toFixed(1)} %, p99 ${atCapacity.p99Us} µs; at 3.5×: ${overloaded.requestsPerSecond.toFixed(0)} req/s, lost ${(lost(overloaded) * 100).toFixed(1)} %, p99 ${overloaded.p99Us} µs`,
    );
    assert.ok(keptUp(atCapacity, calibration.rates[0]!) > keptUp(overloaded, calibration.rates[1]!), 'the capacity step keeps up with more of its rate than the 3.5× step');
    assert.ok(lost(atCapacity) <= lost(overloaded), 'and loses no larger share of its requests');
  });
});
