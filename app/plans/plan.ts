// A plan: what the wizard hands the back end to run as one piece of work. Presets applied to the
// client hosts (every one of them) and the server host, each exactly as the plan the user reviewed
// on that host, then one template and
// variant after another deployed on the server host and loaded from the client with one profile,
// each as its own session, then the presets reverted if asked. With Repeats, every configuration
// runs N times interleaved (A B A B …, so slow drift of the hosts spreads over all of them), each
// run its own session tagged as a repeat. With capacity steps, a calibration on a reference server
// comes before the first template (calibration.ts). With named requests (plan-requests.ts), each
// template runs each request as its own session, deployed once for them all. Also the plan's stages in order (the review shows the
// same list the runner works through) and its estimated duration.

import { z } from 'zod';
import { HostId } from '../hosts/hosts.ts';
import { DEFAULT_ENGINE_CHOICE, EngineChoice } from '../runs/engine-choice.ts';
import { expandSteps, LoadProfile, plannedSeconds, type StepLoad } from '../runs/load-profile.ts';
import { meanThinkMs } from '../runs/think-time.ts';
import { PresetId } from '../presets/presets.ts';
import { MAX_RUN_CLIENTS, RunClient } from '../runs/runs-contract.ts';
import { Tags } from '../sessions/session-library.ts';
import { SessionName } from '../runs/session-identity.ts';
import { KnobValue, TemplateId } from '../templates/templates-contract.ts';
import { Port } from '../templates/templates.ts';
import { CapacitySteps, capacityProfileProblem, describeCapacityTimes, profileAtRates } from './calibration.ts';
import { namedRequestIssues, PlanRequests, plannedRequests } from './plan-requests.ts';

/** Templates (or variants) one plan runs one after another. */
export const MAX_PLAN_TARGETS = 8;
/**
 * Runs of each configuration. A comparison gives a verdict only from 5 runs a side
 * (compare-stats.ts MIN_RUNS_FOR_VERDICT); more than 20 rarely narrows the interval enough to pay.
 */
export const MAX_REPEATS = 20;
/** Rough seconds for the parts of a plan that are not load: shown as estimates, never promised. */
export const ESTIMATE_S = { preset: 5, deploy: 30, stop: 5, revert: 5 } as const;

/** What the estimates go by: a deploy's seconds and what a session adds to its planned load (plan-estimate.ts learns both). */
export interface EstimateBasis {
  deployS(serverHostId: number, templateId: string, variant: string): number;
  /** Seconds a session takes beyond its planned load (connecting, the agent, the pre-flight, the drain). */
  loadOverheadS: number;
  /** Requests/s past runs answered at this URL (target and path) with this many connections; null when none ran there. */
  answersPerS?(url: string, connections: number): number | null;
}

/**
 * Answers per second and connection a count-ended step is guessed to get while no run at its URL
 * is known: 10 ms an answer. A guess for the estimate only; the step's cap still bounds the run.
 */
export const GUESSED_ANSWERS_PER_CONNECTION_S = 100;

/** The guesses, while nothing has been measured. */
export const GUESSED_ESTIMATES: EstimateBasis = { deployS: () => ESTIMATE_S.deploy, loadOverheadS: 0 };

export const PlanTarget = z
  .object({
    templateId: TemplateId,
    variant: z.string().min(1, 'is required').max(40, 'is too long'),
    knobs: z.record(z.string().max(40, 'is too long'), KnobValue).default({}),
    port: Port.optional(),
  })
  .strict();
export type PlanTarget = z.output<typeof PlanTarget>;

const PresetPlanId = z.string().regex(/^[0-9a-f]{16}$/, 'must be the planId of a preset plan');

/** A preset for one host, with the id of the plan (the diff) the user saw: applied only if still true. */
export const PlanPreset = z.object({ presetId: PresetId, planId: PresetPlanId }).strict().nullable();
export type PlanPreset = z.output<typeof PlanPreset>;

/**
 * The client preset: applied to every load client, each host with the plan the user saw on it —
 * `planId` the first client's, `morePlanIds` those of the clients after it, in their order.
 */
export const ClientPlanPreset = z.object({ presetId: PresetId, planId: PresetPlanId, morePlanIds: z.array(PresetPlanId).max(MAX_RUN_CLIENTS - 1).optional() }).strict().nullable();
export type ClientPlanPreset = z.output<typeof ClientPlanPreset>;

export const PlanSpec = z
  .object({
    name: SessionName,
    /** The load client; with several, the first of `clients` (the client preset is applied to each of them). */
    clientHostId: HostId,
    /** Several load clients, the load split over them by weight; absent: clientHostId alone. */
    clients: z.array(RunClient).min(2, 'lists at least two clients (or give one client host)').max(MAX_RUN_CLIENTS, `lists at most ${MAX_RUN_CLIENTS} clients`).optional(),
    serverHostId: HostId,
    presets: z.object({ client: ClientPlanPreset, server: PlanPreset }).strict(),
    /** Put every host a preset changed back as they were once the last session ends (or the plan stops). */
    revertPresets: z.boolean().default(false),
    targets: z
      .array(PlanTarget)
      .min(1, 'choose at least one template')
      .max(MAX_PLAN_TARGETS, `choose at most ${MAX_PLAN_TARGETS} templates or variants`)
      .refine((targets) => new Set(targets.map(targetKey)).size === targets.length, 'lists the same template and variant twice'),
    /** The load for every target; its target address is replaced by each deployment's own. */
    profile: LoadProfile,
    /** Steps as multiples of a capacity measured first on a reference server (calibration.ts); they replace the profile's rate and sweep. */
    capacity: CapacitySteps.optional(),
    /** Named requests, each run as its own session against every target (the profile's request and load stand in for the first). Absent: the profile's one request. */
    requests: PlanRequests.optional(),
    /** The load engine of every session: auto (native where it can run, else Node with a notice), native, or node. */
    engine: EngineChoice.default(DEFAULT_ENGINE_CHOICE),
    /** Runs of each target, interleaved: round 1 runs every target once, then round 2, … */
    repeats: z.number().int('must be a whole number').min(1, 'must be at least 1').max(MAX_REPEATS, `must be at most ${MAX_REPEATS}`).default(1),
    studyId: z.string().max(64).nullable().default(null),
    tags: Tags.default([]),
  })
  .strict()
  .superRefine((spec, ctx) => {
    if (spec.clients && spec.clients[0]?.hostId !== spec.clientHostId) ctx.addIssue({ code: 'custom', path: ['clients', 0], message: 'must be the client host' });
    spec.clients?.forEach((client, index) => {
      if (spec.clients!.findIndex((other) => other.hostId === client.hostId) < index) ctx.addIssue({ code: 'custom', path: ['clients', index], message: 'names a client host again: each host once' });
    });
    const clientPreset = spec.presets.client;
    const morePlans = clientPreset?.morePlanIds?.length ?? 0;
    if (clientPreset && morePlans !== planClientIds(spec).length - 1) {
      ctx.addIssue({ code: 'custom', path: ['presets', 'client', 'morePlanIds'], message: `gives ${morePlans} plans for ${planClientIds(spec).length - 1} clients after the first: one per client` });
    }
    const capacityProblem = spec.capacity ? capacityProfileProblem(spec.profile) : null;
    if (capacityProblem) ctx.addIssue({ code: 'custom', path: ['profile', capacityProblem.field], message: capacityProblem.message });
    if (planClientIds(spec).includes(spec.serverHostId) && clientPreset && spec.presets.server) {
      ctx.addIssue({ code: 'custom', path: ['presets', 'server'], message: `${spec.clients ? 'a client' : 'the client'} and the server are one host: choose one preset for it` });
    }
    // Each request must fit the load it runs with, and its own load the profile's sweep, as the profile's do.
    spec.requests?.forEach((named, index) => {
      const issues = namedRequestIssues(spec.profile, named);
      for (const issue of issues.request) ctx.addIssue({ code: 'custom', path: ['requests', index, ...issue.path], message: issue.message });
      for (const issue of issues.load) ctx.addIssue({ code: 'custom', path: ['requests', index, 'load', ...issue.path.slice(1)], message: issue.message });
    });
  });
export type PlanSpec = z.output<typeof PlanSpec>;
export type PlanSpecInput = z.input<typeof PlanSpec>;

/** The plan's load clients' host ids, in order (one: the client host). */
export function planClientIds(spec: Pick<PlanSpec, 'clientHostId' | 'clients'>): number[] {
  return spec.clients?.map((client) => client.hostId) ?? [spec.clientHostId];
}

/** One preset applied to one host: which stages apply and revert it, and the plan it applies. */
export interface PresetApplication {
  applyStageId: string;
  revertStageId: string;
  role: 'client' | 'server';
  hostId: number;
  presetId: string;
  planId: string;
}

/**
 * Every preset the plan applies, in order: the client preset on each client (the stage ids carry
 * the client's index when there are several), then the server preset.
 */
export function presetApplications(spec: Pick<PlanSpec, 'clientHostId' | 'clients' | 'serverHostId' | 'presets'>): PresetApplication[] {
  const applications: PresetApplication[] = [];
  const clientPreset = spec.presets.client;
  const clientIds = planClientIds(spec);
  if (clientPreset) {
    const planIds = [clientPreset.planId, ...(clientPreset.morePlanIds ?? [])];
    clientIds.forEach((hostId, index) => {
      const suffix = clientIds.length > 1 ? `client-${index}` : 'client';
      applications.push({ applyStageId: `preset-${suffix}`, revertStageId: `revert-${suffix}`, role: 'client', hostId, presetId: clientPreset.presetId, planId: planIds[index]! });
    });
  }
  const serverPreset = spec.presets.server;
  if (serverPreset) applications.push({ applyStageId: 'preset-server', revertStageId: 'revert-server', role: 'server', hostId: spec.serverHostId, ...serverPreset });
  return applications;
}

/** Hosts the plan applied a preset to and has not reverted yet (a revert pending on them), in the plan's order. */
export function unrevertedHosts(state: Pick<PlanState, 'stages'>, spec: Pick<PlanSpec, 'clientHostId' | 'clients' | 'serverHostId' | 'presets'>): number[] {
  const status = (id: string) => state.stages.find((stage) => stage.id === id)?.status;
  return presetApplications(spec)
    .filter((application) => status(application.applyStageId) === 'done' && status(application.revertStageId) !== 'done')
    .map((application) => application.hostId);
}

/** What makes two targets the same run: template, variant and knobs. */
export function targetKey(target: { templateId: string; variant: string; knobs?: Record<string, unknown> }): string {
  return `${target.templateId}/${target.variant}/${JSON.stringify(Object.entries(target.knobs ?? {}).sort())}`;
}

export const STAGE_KINDS = ['preset', 'calibrate', 'deploy', 'load', 'stop', 'revert'] as const;
export const STAGE_STATUSES = ['pending', 'running', 'done', 'failed', 'skipped', 'cancelled'] as const;
/** `interrupted`: Benchlab ended (killed, crashed, closed) while the plan ran. */
export const PLAN_STATUSES = ['running', 'completed', 'failed', 'cancelled', 'interrupted'] as const;
export type PlanStatus = (typeof PLAN_STATUSES)[number];

export const PlanStage = z.object({
  id: z.string(),
  kind: z.enum(STAGE_KINDS),
  label: z.string(),
  status: z.enum(STAGE_STATUSES),
  /** What it is doing now, or why it failed or was skipped. */
  detail: z.string().nullable(),
  /**
   * A stage that ended done but not as asked: a preset some of whose keys did not take effect
   * (which, the value live and why). Shown as a warning, never as a plain done.
   */
  warning: z.string().nullable().optional(),
  /** Which target (index into the spec's targets) a deploy, load or stop stage belongs to. */
  target: z.number().nullable(),
  /** Which repeat (1-based) a deploy, load or stop stage belongs to; null outside them. */
  round: z.number().nullable().default(null),
  /** Which named request (index into the spec's requests) a load stage runs; null with the profile's one request. */
  request: z.number().nullable().optional(),
  /** The session a load stage created. */
  sessionId: z.number().nullable(),
  estimateS: z.number(),
  startedAt: z.string().nullable(),
  endedAt: z.string().nullable(),
});
export type PlanStage = z.infer<typeof PlanStage>;

export const PlanState = z.object({
  id: z.number(),
  name: z.string(),
  status: z.enum(PLAN_STATUSES),
  stages: z.array(PlanStage),
  sessionIds: z.array(z.number()),
  message: z.string().nullable(),
  startedAt: z.string(),
  endedAt: z.string().nullable(),
  estimateS: z.number(),
});
export type PlanState = z.infer<typeof PlanState>;

/** Names the stage labels need, looked up by whoever builds them (the UI or the runner). */
export interface PlanNames {
  host(id: number): string;
  preset(id: string): string;
  template(id: string, variant: string): string;
}

/**
 * Seconds of load a profile plans: warm-up, every step, and the pauses. A step that ends by its
 * request count takes its count over the rate past runs at the same URL answered (`basis`), else
 * over a guess from its connections (never its cap, which only bounds it); `byCount` says the
 * estimate holds such a step.
 */
export function loadEstimate(profile: LoadProfile, basis: EstimateBasis = GUESSED_ESTIMATES): { seconds: number; byCount: boolean } {
  const steps = expandSteps(profile);
  let seconds = profile.warmupS + profile.pauseS * Math.max(0, steps.length - 1);
  let byCount = false;
  for (const step of steps) {
    const planned = plannedSeconds(step.load);
    if (planned === null) {
      byCount = true;
      seconds += countStepSeconds(profile, step.load, basis);
    } else seconds += planned;
  }
  return { seconds, byCount };
}

/** A count-ended step's expected length: its requests over the known (or guessed) rate, within its cap. */
function countStepSeconds(profile: LoadProfile, load: StepLoad, basis: EstimateBasis): number {
  const requests = load.requests ?? 0;
  const connections = load.model === 'closed' ? load.connections : 1;
  const pipelining = load.model === 'closed' ? load.pipelining : 1;
  const measured = basis.answersPerS?.(`${profile.target}${profile.request.path}`, connections) ?? connections * pipelining * GUESSED_ANSWERS_PER_CONNECTION_S;
  // A connection that thinks between requests sends at most one per mean pause.
  const think = load.model === 'closed' && load.thinkTime ? (connections * 1000) / Math.max(1, meanThinkMs(load.thinkTime)) : Number.POSITIVE_INFINITY;
  const rate = Math.min(measured, think);
  return Math.min(profile.countStepCapS, Math.max(1, Math.ceil(requests / rate)));
}

/** The order targets run in: round by round, every target once per round (A B A B …, not A A B B). */
export function planOrder(spec: Pick<PlanSpec, 'targets' | 'repeats'>): Array<{ target: number; round: number }> {
  const order: Array<{ target: number; round: number }> = [];
  for (let round = 1; round <= spec.repeats; round++) for (let target = 0; target < spec.targets.length; target++) order.push({ target, round });
  return order;
}

/**
 * A deploy, load or stop stage's id: `load-0`, or `load-0-3` for the third repeat when there are
 * repeats; a load stage of a named request ends with its index (`load-0-r1`).
 */
export function targetStageId(kind: 'deploy' | 'load' | 'stop', target: number, round: number, repeats: number, request: number | null = null): string {
  const base = repeats > 1 ? `${kind}-${target}-${round}` : `${kind}-${target}`;
  return kind === 'load' && request !== null ? `${base}-r${request}` : base;
}

/** The tag that makes a target's repeats (of one request) one configuration for Compare: unique to this plan run. */
export function repeatGroup(planId: number, startedAt: string, target: number, request: number | null = null): string {
  return `plan ${planId} ${startedAt} target ${target}${request === null ? '' : ` request ${request}`}`;
}

/** The calibration stage's id (one per plan, before the first template). */
export const CALIBRATE_STAGE_ID = 'calibrate';

/** Seconds the calibration may take: the reference's deploy, its time limit, and its stop. */
function calibrationEstimateS(spec: PlanSpec, basis: EstimateBasis): number {
  if (!spec.capacity) return 0;
  return basis.deployS(spec.serverHostId, spec.capacity.reference.templateId, spec.capacity.reference.variant) + spec.capacity.maxS + ESTIMATE_S.stop;
}

/**
 * Seconds of load a plan's profile (or one request's) plans: with capacity steps, one step per
 * multiple at the profile's duration (their rates are not known yet).
 */
function planLoadEstimate(spec: PlanSpec, profile: LoadProfile, basis: EstimateBasis): { seconds: number; byCount: boolean } {
  if (!spec.capacity || profile.load.model !== 'open') return loadEstimate(profile, basis);
  const steps = spec.capacity.times.length;
  return { seconds: profile.warmupS + steps * profile.load.durationS + profile.pauseS * Math.max(0, steps - 1), byCount: false };
}

/** Once the calibration chose the steps' rates: the load stages name them instead of the multiples. */
export function relabelCapacitySteps(stages: PlanStage[], spec: Pick<PlanSpec, 'capacity' | 'profile'>, rates: readonly number[]): void {
  if (!spec.capacity) return;
  const times = describeCapacityTimes(spec.capacity.times);
  const labels = expandSteps(profileAtRates(spec.profile, rates)).map((step) => step.label).join(' / ');
  for (const stage of stages) if (stage.kind === 'load') stage.label = stage.label.replace(times, labels);
}

/** Every stage of a plan in the order the runner works through them, all pending. */
export function planStages(spec: PlanSpec, names: PlanNames, basis: EstimateBasis = GUESSED_ESTIMATES): PlanStage[] {
  const stage = (id: string, kind: PlanStage['kind'], label: string, estimateS: number, target: number | null = null, round: number | null = null, request: number | null = null): PlanStage => ({
    id,
    kind,
    label,
    status: 'pending',
    detail: null,
    target,
    round,
    request,
    sessionId: null,
    estimateS,
    startedAt: null,
    endedAt: null,
  });
  const stages: PlanStage[] = [];
  const applications = presetApplications(spec);
  for (const { applyStageId, hostId, presetId } of applications) {
    stages.push(stage(applyStageId, 'preset', `Apply preset "${names.preset(presetId)}" on ${names.host(hostId)}`, ESTIMATE_S.preset));
  }
  if (spec.capacity) {
    const reference = spec.capacity.reference;
    stages.push(
      stage(
        CALIBRATE_STAGE_ID,
        'calibrate',
        `Measure the capacity of ${names.template(reference.templateId, reference.variant)} on ${names.host(spec.serverHostId)}: the steps are ${describeCapacityTimes(spec.capacity.times)}`,
        calibrationEstimateS(spec, basis),
      ),
    );
  }
  const requests = plannedRequests(spec);
  for (const { target: index, round } of planOrder(spec)) {
    const target = spec.targets[index]!;
    const label = names.template(target.templateId, target.variant);
    const server = names.host(spec.serverHostId);
    const id = (kind: 'deploy' | 'load' | 'stop') => targetStageId(kind, index, round, spec.repeats);
    const which = spec.repeats > 1 ? ` (run ${round} of ${spec.repeats})` : '';
    stages.push(stage(id('deploy'), 'deploy', `Deploy ${label} on ${server}${which}`, basis.deployS(spec.serverHostId, target.templateId, target.variant), index, round));
    requests.forEach(({ name, profile }, requestIndex) => {
      const load = planLoadEstimate(spec, profile, basis);
      const request = name === null ? null : requestIndex;
      stages.push(
        stage(
          targetStageId('load', index, round, spec.repeats, request),
          'load',
          `Load ${label}${which} from ${planClientIds(spec).map((id) => names.host(id)).join(', ')}: ${name === null ? '' : `${name}, `}${profile.request.method} ${profile.request.path}, ${spec.capacity ? describeCapacityTimes(spec.capacity.times) : expandSteps(profile).map((step) => step.label).join(' / ')}${load.byCount ? ' (ends by request count)' : ''}`,
          load.seconds + basis.loadOverheadS,
          index,
          round,
          request,
        ),
      );
    });
    stages.push(stage(id('stop'), 'stop', `Stop ${label} on ${server}${which}`, ESTIMATE_S.stop, index, round));
  }
  if (spec.revertPresets) {
    for (const { revertStageId, hostId } of applications) {
      stages.push(stage(revertStageId, 'revert', `Revert ${names.host(hostId)} to its settings before the preset`, ESTIMATE_S.revert));
    }
  }
  return stages;
}

/** The plan's estimated length in seconds, and whether a count-ended step's length is in it (`byCount`: a rate learned or guessed). */
export function planEstimate(spec: PlanSpec, basis: EstimateBasis = GUESSED_ESTIMATES): { seconds: number; byCount: boolean } {
  const presets = presetApplications(spec).length;
  const loads = plannedRequests(spec).map(({ profile }) => planLoadEstimate(spec, profile, basis));
  const perTarget = loads.reduce((sum, load) => sum + load.seconds + basis.loadOverheadS, 0);
  const deploys = spec.targets.reduce((sum, target) => sum + basis.deployS(spec.serverHostId, target.templateId, target.variant), 0);
  const seconds =
    presets * ESTIMATE_S.preset +
    calibrationEstimateS(spec, basis) +
    spec.repeats * (deploys + spec.targets.length * (perTarget + ESTIMATE_S.stop)) +
    (spec.revertPresets ? presets * ESTIMATE_S.revert : 0);
  return { seconds: Math.ceil(seconds), byCount: loads.some((load) => load.byCount) };
}

export function formatDuration(seconds: number): string {
  const total = Math.round(seconds);
  if (total < 60) return `${total} s`;
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const rest = total % 60;
  if (hours > 0) return `${hours} h ${String(minutes).padStart(2, '0')} min`;
  return rest === 0 ? `${minutes} min` : `${minutes} min ${String(rest).padStart(2, '0')} s`;
}

/**
 * A plan stored while it ran, read back after Benchlab ended mid-way: what was running is marked
 * interrupted, with where it stopped and what to check. Null when the stored value is not a plan.
 */
export function interruptedPlan(stored: unknown, now: Date): PlanState | null {
  const parsed = PlanState.safeParse(stored);
  if (!parsed.success) return null;
  const plan = parsed.data;
  if (plan.status !== 'running') return plan;
  const at = now.toISOString();
  const cut = plan.stages.find((stage) => stage.status === 'running');
  for (const stage of plan.stages) {
    if (stage.status === 'running' || stage.status === 'pending') {
      stage.status = 'cancelled';
      stage.endedAt = at;
    }
  }
  const presetsApplied = plan.stages.some((stage) => stage.kind === 'preset' && stage.status === 'done');
  plan.status = 'interrupted';
  plan.endedAt = at;
  plan.message = [
    `Benchlab ended while the plan ran${cut ? ` (at "${cut.label}")` : ''}; the sessions it made keep what was measured.`,
    ...(presetsApplied ? ['Its presets may still be in effect: see the pending reverts.'] : []),
  ].join('\n');
  return plan;
}
