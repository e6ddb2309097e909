// Runs a plan from the wizard, one stage after another: the presets applied exactly as the user
// reviewed them (the client preset on every client, one stage per host), then each template and
// variant deployed on the server host, checked to be the one server there, loaded from the clients
// as its own session (one per named request, the server deployed once for them all), and stopped — round after round when the plan repeats (A B A B …, each
// session tagged as a repeat of its target for Compare) — then the presets reverted if asked. A
// failed deploy or load fails its stage and the plan goes on with the next template (one broken
// server does not waste the rest of a long sweep); a failed preset stops the plan, since nothing
// after it would be measured as planned, and puts back the hosts it had already changed (all the
// hosts tuned, or none). Cancel stops the stage running now and still stops the server and reverts.
// One owner per server: the plan holds its server host from before its first preset to its end (a
// second plan, from any Benchlab, is refused before it touches anything, naming this one), starts
// only on a host that runs no server, and stops only the server it deployed. With capacity steps a
// calibration on a reference server comes first (capacity-calibration.ts) and chooses the rates.
// The checks of its hosts outside its stages (names, the server host's hold, one server) are plan-checks.ts's.

import { ApiError, messageOf } from '../../../app/common/errors.ts';
import { plural } from '../../../app/common/plural.ts';
import {
  CALIBRATE_STAGE_ID,
  interruptedPlan,
  relabelCapacitySteps,
  planEstimate,
  planOrder,
  planStages,
  presetApplications,
  repeatGroup,
  targetStageId,
  type EstimateBasis,
  type PlanNames,
  type PlanSpec,
  type PlanStage,
  type PlanState,
  type PresetApplication,
} from '../../../app/plans/plan.ts';
import type { ApplyResult } from '../../../app/presets/presets-contract.ts';
import { effectsOf, effectWarning } from '../../../app/presets/preset-effect.ts';
import { runDeploymentOf } from '../../../app/runs/run-deployment.ts';
import { describeLoadRun } from '../../../app/plans/load-line.ts';
import { plannedRequests, type PlannedRequest } from '../../../app/plans/plan-requests.ts';
import type { Deployment } from '../../../app/templates/templates-contract.ts';
import type { EventBus } from '../event-bus.ts';
import type { HostConnections } from '../hosts/host-connections.ts';
import type { Logger } from '../logger.ts';
import type { PresetCatalog } from '../presets/preset-catalog.ts';
import type { PresetService } from '../presets/preset-service.ts';
import type { RunService } from '../runs/run-service.ts';
import type { HostsRepository } from '../hosts/hosts-repository.ts';
import type { SessionsRepository } from '../runs/sessions-repository.ts';
import type { TemplateService } from '../templates/template-service.ts';
import type { HostHold } from '../templates/server-hold.ts';
import { planSessionName } from '../../../app/sessions/session-names.ts';
import type { FrontDoor } from '../../../app/templates/server-words.ts';
import { profileAtRates } from '../../../app/plans/calibration.ts';
import { describeCalibration, describeRamp, type RecordedCalibration } from '../../../app/runs/calibration-record.ts';
import { calibrate } from './capacity-calibration.ts';
import { holdServerHost, otherServer, planNames } from './plan-checks.ts';

export interface PlanRunnerOptions {
  bus: EventBus;
  log: Logger;
  hosts: HostsRepository;
  connections: Pick<HostConnections, 'connect'>;
  sessions: SessionsRepository;
  presetCatalog: PresetCatalog;
  presets: Pick<PresetService, 'apply' | 'revert' | 'release'>;
  templates: Pick<TemplateService, 'list' | 'deploy' | 'cancel' | 'stop' | 'occupant' | 'hold'>;
  runs: Pick<RunService, 'start' | 'stop' | 'finished'>;
  /** What the stages' estimates go by (learned from past deploys and sessions); the guesses without it. */
  estimates?: { basis(): EstimateBasis };
  /** Where the plan is kept as it runs, so a Benchlab that ends mid-plan still shows it after. */
  store: { load(): unknown; save(plan: PlanState): void };
  /** Where refusals are read: the CLI's name the command that clears the way. Default app. */
  frontDoor?: FrontDoor;
}

interface Active {
  state: PlanState;
  spec: PlanSpec;
  controller: AbortController;
  /** The stage running now, so Cancel knows what to interrupt. */
  current: PlanStage | null;
  done: Promise<void>;
  /** The server host held for this plan, released at its end. */
  hold: HostHold;
  /** The capacity measured before the first template (capacity steps only): the steps' rates come from it. */
  calibration: RecordedCalibration | null;
}

class StageFailure extends Error {}

export class PlanRunner {
  readonly #options: PlanRunnerOptions;
  #active: Active | null = null;
  #nextId = 1;

  /** The last plan of an earlier Benchlab, shown until this one starts its own. */
  #previous: PlanState | null;

  constructor(options: PlanRunnerOptions) {
    this.#options = options;
    this.#previous = interruptedPlan(options.store.load(), new Date());
    if (this.#previous) {
      this.#nextId = this.#previous.id + 1;
      if (this.#previous.status === 'interrupted') {
        options.store.save(this.#previous);
        options.log.warn('plans', `${this.#previous.name}: Benchlab ended while this plan ran; marked interrupted`);
      }
    }
  }

  current(): PlanState | null {
    return structuredClone(this.#active?.state ?? this.#previous);
  }

  async start(spec: PlanSpec): Promise<PlanState> {
    if (this.#active?.state.status === 'running') throw new ApiError('conflict', `plan "${this.#active.state.name}" is still running: cancel it or wait`);
    const names = await planNames(this.#options, spec);
    const hold = await holdServerHost(this.#options, spec, names);
    const basis = this.#options.estimates?.basis();
    const now = new Date().toISOString();
    const state: PlanState = {
      id: this.#nextId++,
      name: spec.name,
      status: 'running',
      stages: planStages(spec, names, basis),
      sessionIds: [],
      message: null,
      startedAt: now,
      endedAt: null,
      estimateS: planEstimate(spec, basis).seconds,
    };
    const active: Active = { state, spec, controller: new AbortController(), current: null, done: Promise.resolve(), hold, calibration: null };
    this.#active = active;
    this.#options.log.info('plans', `${spec.name}: starting ${state.stages.length} stages`);
    this.#publish(active);
    active.done = this.#drive(active, names);
    return structuredClone(state);
  }

  async cancel(): Promise<PlanState> {
    const active = this.#active;
    if (!active || active.state.status !== 'running') throw new ApiError('not_found', 'no plan is running');
    if (!active.controller.signal.aborted) {
      active.controller.abort();
      this.#options.log.warn('plans', `${active.state.name}: cancel asked`);
      await this.#interrupt(active);
    }
    await active.done;
    return structuredClone(active.state);
  }

  /** Shutdown: no further stage starts (the load and the deployments are stopped by their services). */
  close(): void {
    this.#active?.controller.abort();
  }

  /** Resolves once the plan running now (if any) has ended. */
  async settled(): Promise<PlanState | null> {
    await this.#active?.done;
    return this.current();
  }

  // ---------------------------------------------------------------------------------------------

  async #drive(active: Active, names: PlanNames): Promise<void> {
    const { spec, state } = active;
    const signal = active.controller.signal;
    const failures: string[] = [];
    const applications = presetApplications(spec);
    const applied = new Set<PresetApplication>();
    try {
      for (const application of applications) {
        const stage = this.#stage(active, application.applyStageId)!;
        if (signal.aborted) break;
        const { hostId } = application;
        // A plan that reverts its presets holds what it applies: no "pending revert" while it runs.
        const revertedBy = spec.revertPresets ? { revertedBy: `plan "${spec.name}"` } : {};
        const result = await this.#run(active, stage, async () => {
          const outcome = await this.#options.presets.apply(application.presetId, hostId, application.planId, revertedBy);
          // Said before the stage ends, so its end (the wizard's row, the CLI's line) carries them.
          stage.detail = describeApply(outcome);
          stage.warning = effectWarning(effectsOf(outcome.plan.presetName, outcome.verdicts));
          return outcome;
        });
        if (result === null) {
          if (!spec.revertPresets) await this.#rollBack(active, stage, [...applied], names);
          failures.push(`${stage.label}: ${stage.detail}`);
          throw new StageFailure();
        }
        applied.add(application);
        if (result.outcome === 'applied' && result.plan.limits.length > 0 && this.#options.hosts.get(hostId).kind === 'ssh') {
          // pam_limits runs at login: a new login gives the agent and the server the new limits.
          await this.#options.connections.connect(hostId);
          stage.detail += '; reconnected, so the load and the server get the new limits';
          this.#publish(active);
        }
      }
      if (spec.capacity && !signal.aborted) await this.#calibrate(active, names, failures);
      for (const { target: index, round } of planOrder(spec)) {
        if (signal.aborted) break;
        const failure = await this.#runTarget(active, index, round, spec.targets[index]!, names);
        if (failure) failures.push(failure);
      }
    } catch (error) {
      if (!(error instanceof StageFailure)) failures.push(error instanceof Error ? error.message : String(error));
    } finally {
      for (const application of applications) {
        const stage = this.#stage(active, application.revertStageId);
        if (!stage) continue;
        if (!applied.has(application)) {
          this.#finishStage(active, stage, 'skipped', 'the preset was not applied');
          continue;
        }
        // A revert runs even after Cancel: the hosts go back as they were whatever happened.
        const result = await this.#run(active, stage, () => this.#options.presets.revert(application.hostId), { cancellable: false });
        if (result === null) failures.push(`${stage.label}: ${stage.detail}`);
        else stage.detail = result.outcome;
      }
      // What a revert left behind (it failed) is a pending revert from now on, with its banner.
      for (const hostId of new Set(applications.map((application) => application.hostId))) this.#options.presets.release(hostId);
      for (const stage of state.stages) if (stage.status === 'pending') this.#finishStage(active, stage, signal.aborted ? 'cancelled' : 'skipped', null);
      const status = failures.length > 0 ? 'failed' : signal.aborted ? 'cancelled' : 'completed';
      state.status = status;
      state.endedAt = new Date().toISOString();
      state.message = failures.length > 0 ? failures.join('\n') : signal.aborted ? 'cancelled: the server was stopped and the rest skipped' : null;
      active.current = null;
      await active.hold.release().catch(() => undefined);
      const log = status === 'failed' ? this.#options.log.error.bind(this.#options.log) : this.#options.log.info.bind(this.#options.log);
      log('plans', `${state.name}: ${status}${state.message ? ` — ${state.message}` : ''}`);
      this.#publish(active);
    }
  }

  /**
   * A preset failed on one host and the plan keeps no revert stages: the hosts it already changed go
   * back now, said in the failed stage, so a failed plan never leaves some clients tuned and others not.
   */
  async #rollBack(active: Active, failed: PlanStage, applied: PresetApplication[], names: PlanNames): Promise<void> {
    if (applied.length === 0) return;
    const outcomes: string[] = [];
    for (const { hostId } of applied) {
      try {
        await this.#options.presets.revert(hostId);
        outcomes.push(`${names.host(hostId)} reverted`);
      } catch (error) {
        outcomes.push(`${names.host(hostId)} could not be reverted (${error instanceof Error ? error.message : String(error)}): revert it from the Presets page`);
      }
    }
    failed.detail = `${failed.detail}; what the plan had changed is put back: ${outcomes.join(', ')}`;
    this.#publish(active);
  }

  /** The capacity measured before the first template, the steps' rates chosen from it; without it no step has a rate (the plan fails). */
  async #calibrate(active: Active, names: PlanNames, failures: string[]): Promise<void> {
    const { spec } = active;
    const stage = this.#stage(active, CALIBRATE_STAGE_ID)!;
    const calibration = await this.#run(active, stage, () =>
      calibrate(this.#options, {
        spec: { ...spec, capacity: spec.capacity! },
        referenceLabel: names.template(spec.capacity!.reference.templateId, spec.capacity!.reference.variant),
        signal: active.controller.signal,
        progress: (detail) => { stage.detail = detail; this.#publish(active); },
        running: (sessionId) => void (stage.sessionId = sessionId),
        otherServer: (deployment) => otherServer(this.#options.templates, deployment),
      }),
    );
    if (!calibration) {
      if (!active.controller.signal.aborted) failures.push(`${stage.label}: ${stage.detail}`);
      throw new StageFailure();
    }
    active.calibration = calibration;
    stage.detail = `${describeCalibration(calibration)} (ramp: ${describeRamp(calibration.ramp)})`;
    relabelCapacitySteps(active.state.stages, spec, calibration.rates);
    this.#options.log.info('plans', `${spec.name}: ${describeCalibration(calibration)}`);
    this.#publish(active);
  }

  /** Deploy, load and stop one template (one repeat of it); returns what failed, or null. */
  async #runTarget(active: Active, index: number, round: number, target: PlanSpec['targets'][number], names: PlanNames): Promise<string | null> {
    const { spec } = active;
    const deployStage = this.#stage(active, targetStageId('deploy', index, round, spec.repeats))!;
    const requests = plannedRequests(spec);
    const loadStages = requests.map((request, at) => this.#stage(active, targetStageId('load', index, round, spec.repeats, request.name === null ? null : at))!);
    const stopStage = this.#stage(active, targetStageId('stop', index, round, spec.repeats))!;
    const unwatch = this.#options.bus.subscribe('templates.progress', (deployment) => {
      if (deployment.hostId !== spec.serverHostId || deployStage.status !== 'running' || !deployment.step) return;
      deployStage.detail = `${deployment.step.label}${deployment.step.detail ? `: ${deployment.step.detail}` : ''}`;
      this.#publish(active);
    });
    let failure: string | null = null;
    // Set when no server of this plan's runs there: the plan stops nothing it did not start.
    let leaveServer: string | null = null;
    try {
      const deployment = await this.#run(active, deployStage, () =>
        this.#options.templates.deploy(spec.serverHostId, target.templateId, { variant: target.variant, knobs: target.knobs, port: target.port }, { held: true }),
      );
      if (!deployment) {
        if (!active.controller.signal.aborted) failure = `${deployStage.label}: ${deployStage.detail}`;
        for (const loadStage of loadStages) this.#finishStage(active, loadStage, active.controller.signal.aborted ? 'cancelled' : 'skipped', 'the server did not start');
        // A failed or cancelled deploy stops what it started itself: what runs there now is not this plan's.
        leaveServer = 'the deploy left no server of this plan’s running: nothing to stop';
      } else {
        deployStage.detail = deployment.url;
        // Each request runs on the server deployed for them all, checked to be still ours before each.
        for (const [at, loadStage] of loadStages.entries()) {
          if (leaveServer) {
            this.#finishStage(active, loadStage, 'skipped', leaveServer);
            continue;
          }
          const other = active.controller.signal.aborted ? null : await otherServer(this.#options.templates, deployment);
          if (other) {
            this.#finishStage(active, loadStage, 'failed', other.message);
            failure ??= `${loadStage.label}: ${other.message}`;
            if (other.leave) leaveServer = 'the server there now is not this plan’s: left running';
            continue;
          }
          const loaded = await this.#load(active, loadStage, deployment, names.template(target.templateId, target.variant), { index, round, request: at }, requests[at]!);
          failure ??= loaded;
        }
      }
    } finally {
      unwatch();
    }
    if (leaveServer) {
      this.#finishStage(active, stopStage, 'skipped', leaveServer);
      return failure;
    }
    // The server goes down whatever happened above, so the next template finds the port free.
    const stopped = await this.#run(active, stopStage, () => this.#options.templates.stop(spec.serverHostId), { cancellable: false });
    if (stopped === null) failure ??= `${stopStage.label}: ${stopStage.detail}`;
    return failure;
  }

  /** Loads the deployment just made: its address is the target, and its template labels the runs. */
  async #load(active: Active, stage: PlanStage, deployment: Deployment, templateLabel: string, which: { index: number; round: number; request: number }, request: PlannedRequest): Promise<string | null> {
    const { spec } = active;
    const requestIndex = request.name === null ? null : which.request;
    // Tagged only when repeated: a lone run keeps grouping with equal configurations of other days.
    const repeat = spec.repeats > 1 ? { group: repeatGroup(active.state.id, active.state.startedAt, which.index, requestIndex), index: which.round, of: spec.repeats } : undefined;
    const unwatch = this.#options.bus.subscribe('runs.state', (run) => {
      if (run.sessionId !== stage.sessionId) return;
      stage.detail = describeLoadRun(run);
      this.#publish(active);
    });
    try {
      const final = await this.#run(active, stage, async () => {
        const started = await this.#options.runs.start({
          name: planSessionName(spec, which.index, templateLabel, which.round, request.name),
          ...(spec.clients ? { clients: spec.clients } : { clientHostId: spec.clientHostId }),
          serverHostId: spec.serverHostId,
          profile: { ...(active.calibration ? profileAtRates(request.profile, active.calibration.rates) : request.profile), target: deployment.url ?? spec.profile.target },
          ...(request.name !== null ? { requestName: request.name } : {}),
          ...(repeat ? { repeat } : {}),
          ...(active.calibration ? { calibration: active.calibration } : {}),
          deployment: runDeploymentOf(deployment),
          engine: spec.engine,
        });
        stage.sessionId = started.sessionId;
        active.state.sessionIds.push(started.sessionId);
        const tags = [...spec.tags, ...(spec.studyId ? [spec.studyId] : [])];
        if (tags.length > 0) this.#options.sessions.updateNotesAndTags(started.sessionId, { tags: [...new Set(tags)].slice(0, 20) });
        this.#publish(active);
        if (active.controller.signal.aborted) await this.#options.runs.stop(started.sessionId).catch(() => undefined);
        const ended = await this.#options.runs.finished(started.sessionId);
        // A load that failed or was stopped ends its stage so at once, never as done first.
        if (ended?.status === 'failed') this.#finishStage(active, stage, 'failed', ended.message ?? 'the load failed');
        if (ended?.status === 'cancelled') this.#finishStage(active, stage, 'cancelled', 'stopped; the seconds measured are kept');
        return ended;
      });
      if (!final) return active.controller.signal.aborted ? null : `${stage.label}: ${stage.detail}`;
      if (final.status === 'failed') return `${stage.label}: ${stage.detail}`;
      if (final.status !== 'cancelled') stage.detail = describeLoadRun(final);
      return null;
    } finally {
      unwatch();
    }
  }

  /**
   * Runs one stage's work: running → done, or failed with the error's message (null returned).
   * Cancel interrupts a cancellable stage; one that must finish (stop, revert) runs to its end.
   */
  async #run<T>(active: Active, stage: PlanStage, work: () => Promise<T>, options: { cancellable?: boolean } = {}): Promise<T | null> {
    const cancellable = options.cancellable ?? true;
    if (cancellable && active.controller.signal.aborted) {
      this.#finishStage(active, stage, 'cancelled', null);
      return null;
    }
    stage.status = 'running';
    stage.startedAt = new Date().toISOString();
    active.current = stage;
    this.#publish(active);
    try {
      const result = await work();
      if (stage.status === 'running') this.#finishStage(active, stage, 'done', stage.detail);
      return result;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.#finishStage(active, stage, cancellable && active.controller.signal.aborted ? 'cancelled' : 'failed', message);
      return null;
    } finally {
      if (active.current === stage) active.current = null;
    }
  }

  /** Cancel: stop what the current stage is waiting on. */
  async #interrupt(active: Active): Promise<void> {
    const stage = active.current;
    if (!stage) return;
    if (stage.kind === 'deploy' || stage.kind === 'calibrate') this.#options.templates.cancel(active.spec.serverHostId);
    if ((stage.kind === 'load' || stage.kind === 'calibrate') && stage.sessionId !== null) await this.#options.runs.stop(stage.sessionId).catch(() => undefined);
  }

  #stage(active: Active, id: string): PlanStage | undefined {
    return active.state.stages.find((stage) => stage.id === id);
  }

  #finishStage(active: Active, stage: PlanStage, status: PlanStage['status'], detail: string | null): void {
    stage.status = status;
    stage.detail = detail;
    stage.endedAt = new Date().toISOString();
    this.#publish(active);
  }

  #publish(active: Active): void {
    try {
      this.#options.store.save(active.state);
    } catch (error) {
      this.#options.log.warn('plans', `${active.state.name}: could not keep the plan's progress: ${messageOf(error)}`);
    }
    this.#options.bus.publish('plans.progress', structuredClone(active.state));
  }
}

/** The apply in a few words; keys that did not take effect are the stage's warning (effectWarning). */
function describeApply(result: ApplyResult): string {
  const head = result.outcome === 'no changes' ? 'already as the preset asks' : `applied (${plural(result.plan.changes, 'change')})`;
  // The network side is said with the values tc read back, so a log shows the link a run had.
  const network = result.verdicts.filter((verdict) => verdict.kind === 'network' && verdict.status === 'applied');
  return network.length > 0 ? `${head}; network ${network.map((verdict) => `${verdict.key} ${verdict.observed}`).join(', ')}` : head;
}
