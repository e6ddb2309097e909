// A plan's calibration, run once before its first template when its steps are multiples of a
// capacity: the reference server deployed on the server host, a short closed-model probe of the
// plan's request, then a rising open-model ramp around the probe's rate, stopped at the first step
// that does not sustain its rate (or at the calibration's time limit), and the server stopped. The
// rules (what the probe and ramp are, what "sustains" means, the capacity and the steps' rates) are
// app/plans/calibration.ts's; this module only drives them. Both runs are sessions of their own,
// tagged `calibration`; what they found goes into every session of the plan (its config).

import { capacityOf, capacityStepRates, judgeRampStep, probeProfile, rampProfile, rampRates, type CapacitySteps } from '../../../app/plans/calibration.ts';
import { describeRamp, type RampStep, type RecordedCalibration } from '../../../app/runs/calibration-record.ts';
import { runDeploymentOf } from '../../../app/runs/run-deployment.ts';
import type { LoadProfile } from '../../../app/runs/load-profile.ts';
import type { PlanSpec } from '../../../app/plans/plan.ts';
import type { LiveRun } from '../../../app/runs/runs.ts';
import type { Deployment } from '../../../app/templates/templates-contract.ts';
import type { EventBus } from '../event-bus.ts';
import type { RunService } from '../runs/run-service.ts';
import type { SessionsRepository } from '../runs/sessions-repository.ts';
import type { TemplateService } from '../templates/template-service.ts';

export const CALIBRATION_TAG = 'calibration';

export interface CalibrationDeps {
  bus: EventBus;
  sessions: Pick<SessionsRepository, 'updateNotesAndTags'>;
  templates: Pick<TemplateService, 'deploy' | 'stop'>;
  runs: Pick<RunService, 'start' | 'stop' | 'finished'>;
}

export interface CalibrationJob {
  /** The plan: its name, capacity steps, hosts, and profile (whose request the calibration sends). */
  spec: Pick<PlanSpec, 'name' | 'serverHostId' | 'clientHostId' | 'profile'> & { capacity: CapacitySteps };
  /** The reference server's name as shown ("Node.js · sync"). */
  referenceLabel: string;
  signal: AbortSignal;
  /** What it is doing now, for the stage's detail. */
  progress(detail: string): void;
  /** The session running now (so Cancel can stop it), or null between them. */
  running(sessionId: number | null): void;
  /** Null when the deployment is the one server on its host; else why the calibration cannot load it (and whether to leave it running). */
  otherServer(deployment: Deployment): Promise<{ message: string; leave: boolean } | null>;
}

/** Runs the calibration; throws with what went wrong (the plan's steps cannot be chosen without it). */
export async function calibrate(deps: CalibrationDeps, job: CalibrationJob): Promise<RecordedCalibration> {
  const { capacity, serverHostId } = job.spec;
  const { reference } = capacity;
  job.progress(`deploying ${job.referenceLabel}`);
  // The plan holds the server host: its deploy is the plan's own.
  const deployment = await deps.templates.deploy(serverHostId, reference.templateId, { variant: reference.variant, knobs: reference.knobs }, { held: true });
  let leave = false;
  try {
    const other = await job.otherServer(deployment);
    if (other) {
      leave = other.leave;
      throw new Error(other.message);
    }
    // The time limit is the measurement's: the deploy before it has its own.
    const deadline = Date.now() + capacity.maxS * 1000;
    const profile = { ...job.spec.profile, target: deployment.url ?? job.spec.profile.target };
    const sessionIds: number[] = [];
    const run = (name: string, runProfile: LoadProfile, watch?: (run: LiveRun) => void) => measure(deps, job, deployment, name, runProfile, sessionIds, watch);

    job.progress(`probing ${job.referenceLabel}: ${runLabel(probeProfile(profile))}`);
    const probe = await run(`${job.spec.name} — calibration probe on ${job.referenceLabel}`, probeProfile(profile));
    const probeAnswersPerS = probe.steps[0]?.summary?.requestsPerSecond ?? 0;
    const probeP99Us = probe.steps[0]?.summary?.p99Us ?? null;
    if (probe.status === 'failed' || !(probeAnswersPerS > 0)) throw new Error(`the probe of ${job.referenceLabel} got no answers${probe.message ? `: ${probe.message}` : ''}`);
    if (job.signal.aborted) throw new Error('cancelled');

    const rates = rampRates(probeAnswersPerS);
    job.progress(`the probe answered ${Math.round(probeAnswersPerS)} req/s; ramping ${job.referenceLabel} over ${rates.join(', ')} req/s`);
    // The ramp stops at its first step that does not sustain its rate, or at the time limit.
    let stopAsked = false;
    let sessionId: number | null = null;
    const stopRamp = () => {
      if (stopAsked || sessionId === null) return;
      stopAsked = true;
      void deps.runs.stop(sessionId).catch(() => undefined);
    };
    const timer = setTimeout(stopRamp, Math.max(0, deadline - Date.now()));
    timer.unref?.();
    let ramp: LiveRun;
    try {
      ramp = await run(`${job.spec.name} — calibration ramp on ${job.referenceLabel}`, rampProfile(profile, rates), (live) => {
        sessionId = live.sessionId;
        const judged = judgeRamp(live, rates, probeP99Us);
        if (judged.some((step) => !step.sustained)) stopRamp();
        if (judged.length > 0) job.progress(`ramping ${job.referenceLabel}: ${describeRamp(judged)}`);
      });
    } finally {
      clearTimeout(timer);
    }
    if (job.signal.aborted) throw new Error('cancelled');
    const judged = judgeRamp(ramp, rates, probeP99Us);
    const found = capacityOf(judged);
    if (!found) throw new Error(`${job.referenceLabel} sustained none of the ramp's rates (${describeRamp(judged) || ramp.message || 'no step completed'})`);
    return {
      reference: { ...reference, label: job.referenceLabel },
      measuredAt: ramp.endedAt ?? new Date().toISOString(),
      capacity: found.capacity,
      atLeast: found.atLeast,
      times: capacity.times,
      rates: capacityStepRates(found.capacity, capacity.times),
      probeAnswersPerS,
      ramp: judged,
      sessionIds,
    };
  } finally {
    job.running(null);
    if (!leave) await deps.templates.stop(serverHostId).catch(() => undefined);
  }
}

/** The ramp's completed steps judged in order, up to the first that did not sustain its rate. */
function judgeRamp(run: LiveRun, rates: readonly number[], probeP99Us: number | null): RampStep[] {
  const judged: RampStep[] = [];
  for (const step of run.steps) {
    if (step.status !== 'completed' || !step.summary) break;
    const result = judgeRampStep(rates[step.index] ?? step.targetRate ?? 0, step.summary, judged[0]?.p99Us ?? null, probeP99Us);
    judged.push(result);
    if (!result.sustained) break;
  }
  return judged;
}

function runLabel(profile: LoadProfile): string {
  return profile.load.model === 'closed' ? `${profile.load.connections} connections for ${profile.load.durationS} s` : `${profile.sweep.length} steps`;
}

/** One calibration run as its own session (tagged), to its end; `watch` sees its every state. */
async function measure(
  deps: CalibrationDeps,
  job: CalibrationJob,
  deployment: Deployment,
  name: string,
  profile: LoadProfile,
  sessionIds: number[],
  watch?: (run: LiveRun) => void,
): Promise<LiveRun> {
  let sessionId: number | null = null;
  const unwatch = deps.bus.subscribe('runs.state', (run) => {
    if (run.sessionId === sessionId) watch?.(run);
  });
  try {
    const { clientHostId, serverHostId } = job.spec;
    const started = await deps.runs.start({ name: name.slice(0, 200), clientHostId, serverHostId, profile, deployment: runDeploymentOf(deployment) });
    sessionId = started.sessionId;
    sessionIds.push(started.sessionId);
    job.running(started.sessionId);
    deps.sessions.updateNotesAndTags(started.sessionId, { tags: [CALIBRATION_TAG] });
    if (job.signal.aborted) await deps.runs.stop(started.sessionId).catch(() => undefined);
    return await deps.runs.finished(started.sessionId);
  } finally {
    unwatch();
  }
}
