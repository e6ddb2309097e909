// The wizard's answers as the user gives them, kept by the back end across reloads (the 'wizard' draft):
// restored field by field from whatever was saved (a bad field falls back to its default, never
// loses the rest), checked step by step before Next, and turned into the plan the back end runs.

import { DEFAULT_ENGINE_CHOICE, EngineChoice } from '../../../../app/runs/engine-choice.ts';
import { LoadProfile, profileFieldErrors } from '../../../../app/runs/load-profile.ts';
import { MAX_REPEATS, PlanSpec, type PlanSpecInput } from '../../../../app/plans/plan.ts';
import { parseTags } from '../../../../app/sessions/session-library.ts';
import { SessionName } from '../../../../app/runs/session-identity.ts';
import type { Session } from '../../../../app/sessions/sessions.ts';
import type { KnobValue } from '../../../../app/templates/templates.ts';
import { STUDY_TARGET_PLACEHOLDER } from '../../../../app/plans/plan-file.ts';
import type { Study } from '../../../../app/plans/studies.ts';
import { CapacitySteps } from '../../../../app/plans/calibration.ts';
import { clientPickErrors, restoreClientPicks, weightOf, type ClientPick } from '../runs/client-picks.ts';
import { RecordedClient } from '../../../../app/runs/run-clients.ts';
import { DEFAULT_DRAFT, draftOfProfile, fieldOfError, profileOf, restoreProfileDraft, type ProfileDraft } from '../runs/profile-draft.ts';
import { draftsOfRequests, namedRequestsOf, requestDraftErrors, restoreRequestDrafts, type RequestDraft } from './request-drafts.ts';

export const WIZARD_STEPS = [
  { id: 'hosts', label: 'Hosts' },
  { id: 'presets', label: 'Presets' },
  { id: 'templates', label: 'Templates' },
  { id: 'load', label: 'Load profile' },
  { id: 'review', label: 'Review' },
  { id: 'run', label: 'Run' },
] as const;
export type WizardStepId = (typeof WIZARD_STEPS)[number]['id'];

export interface WizardTarget {
  templateId: string;
  variant: string;
  /** Only from a plan file or a study: the Templates step shows them, it does not set them. */
  knobs?: Record<string, KnobValue>;
}

export interface WizardDraft {
  step: WizardStepId;
  /** The load client; with several, the first (the client preset applies to each of them). */
  clientHostId: number | null;
  /** The first client's weight as typed (empty: its core count); used only with more clients. */
  clientWeight: string;
  /** Load clients after the first, each with its weight as typed; empty for one client. */
  moreClients: ClientPick[];
  serverHostId: number | null;
  clientPreset: string | null;
  serverPreset: string | null;
  revertPresets: boolean;
  targets: WizardTarget[];
  /** The port every template listens on; empty for each template's own default. */
  port: string;
  /** The study the profile came from, or null for a custom profile. */
  studyId: string | null;
  profile: ProfileDraft;
  /** Steps as multiples of a capacity measured first (a study's or a plan file's), replacing the profile's rate and sweep; null: the profile's own steps. */
  capacity: CapacitySteps | null;
  /** Named requests, each run as its own session against every template; empty: the profile's one request. */
  requests: RequestDraft[];
  name: string;
  tags: string;
  /** Runs of each template, interleaved (text as typed; checked on Review). */
  repeats: string;
  /** The load engine of every session. */
  engine: EngineChoice;
  /** From an opened plan file, kept for the file it is saved to: `benchlab run` checks them, the wizard does not. */
  thresholds: string[];
}

export const DEFAULT_WIZARD: WizardDraft = {
  step: 'hosts',
  clientHostId: null,
  clientWeight: '',
  moreClients: [],
  serverHostId: null,
  clientPreset: null,
  serverPreset: null,
  revertPresets: true,
  targets: [],
  port: '',
  studyId: null,
  profile: { ...DEFAULT_DRAFT, durationS: '30' },
  capacity: null,
  requests: [],
  name: '',
  tags: '',
  repeats: '1',
  engine: DEFAULT_ENGINE_CHOICE,
  thresholds: [],
};

const isId = (value: unknown): value is number => Number.isInteger(value) && (value as number) > 0;
const isText = (value: unknown): value is string => typeof value === 'string';
const isKnobs = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((knob) => ['number', 'boolean', 'string'].includes(typeof knob));

/** A saved draft back as a WizardDraft: each field kept only if it has the right shape. */
export function restoreWizard(saved: unknown): WizardDraft {
  if (typeof saved !== 'object' || saved === null) return DEFAULT_WIZARD;
  const raw = saved as Record<string, unknown>;
  const pick = <T>(key: keyof WizardDraft, ok: (value: unknown) => boolean): T => (ok(raw[key]) ? raw[key] : DEFAULT_WIZARD[key]) as T;
  const profile = restoreProfileDraft(raw.profile, DEFAULT_WIZARD.profile);
  return {
    step: pick('step', (value) => WIZARD_STEPS.some((step) => step.id === value)),
    clientHostId: pick('clientHostId', (value) => value === null || isId(value)),
    clientWeight: pick('clientWeight', isText),
    moreClients: Array.isArray(raw.moreClients) && raw.moreClients.length > 0 ? restoreClientPicks(raw.moreClients) : [],
    serverHostId: pick('serverHostId', (value) => value === null || isId(value)),
    clientPreset: pick('clientPreset', (value) => value === null || isText(value)),
    serverPreset: pick('serverPreset', (value) => value === null || isText(value)),
    revertPresets: pick('revertPresets', (value) => typeof value === 'boolean'),
    targets: pick('targets', (value) => Array.isArray(value) && value.every((target) => isText(target?.templateId) && isText(target?.variant) && (target.knobs === undefined || isKnobs(target.knobs)))),
    port: pick('port', isText),
    studyId: pick('studyId', (value) => value === null || isText(value)),
    profile,
    capacity: restoredCapacity(raw.capacity),
    requests: restoreRequestDrafts(raw.requests),
    name: pick('name', isText),
    tags: pick('tags', isText),
    repeats: pick('repeats', isText),
    engine: pick('engine', (value) => EngineChoice.safeParse(value).success),
    thresholds: pick('thresholds', (value) => Array.isArray(value) && value.every(isText)),
  };
}

function restoredCapacity(value: unknown): CapacitySteps | null {
  const parsed = CapacitySteps.safeParse(value);
  return parsed.success ? parsed.data : null;
}

function repeatsOf(draft: WizardDraft): number | null {
  const text = draft.repeats.trim();
  const repeats = Number(text);
  return /^\d+$/.test(text) && repeats >= 1 && repeats <= MAX_REPEATS ? repeats : null;
}

function portOf(draft: WizardDraft): number | null {
  const port = Number(draft.port.trim());
  return draft.port.trim() !== '' && Number.isInteger(port) && port >= 1 && port <= 65535 ? port : null;
}

/** What the wizard knows of the world when it checks a step. */
export interface WizardContext {
  connected(hostId: number): boolean;
  /** The planId of the role's preset plan shown for one of its hosts, or a string saying why there is none yet. */
  presetPlan(role: 'client' | 'server', hostId: number): { planId: string } | string | null;
  /** The plan's name when none is typed (proposedPlanName). */
  proposedName: string;
}

/**
 * The name proposed before one is typed: the study's, or what it compares ("Node · async vs Node ·
 * sync"), and the request it sends; empty while no template is chosen.
 */
export function proposedPlanName(draft: Pick<WizardDraft, 'targets' | 'profile'> & { requests?: RequestDraft[] }, templateLabel: (templateId: string, variant: string) => string, studyName: string | null): string {
  if (draft.targets.length === 0) return '';
  const what = studyName ?? draft.targets.map((target) => templateLabel(target.templateId, target.variant)).join(' vs ');
  const sent = draft.requests && draft.requests.length > 0 ? draft.requests.map((request) => request.name.trim()).join(', ') : `${draft.profile.method} ${draft.profile.path.trim()}`;
  return `${what}, ${sent}`.slice(0, 120);
}

/** The name the plan takes: the one typed, else the proposed one. */
function nameOf(draft: WizardDraft, context: WizardContext): string {
  return draft.name.trim() || context.proposedName;
}

/** Field → message for one step; empty when the step may go on. */
export function stepErrors(step: WizardStepId, draft: WizardDraft, context: WizardContext): Record<string, string> {
  const errors: Record<string, string> = {};
  switch (step) {
    case 'hosts':
      if (draft.clientHostId === null) errors.clientHostId = 'choose the host that generates the load';
      else if (!context.connected(draft.clientHostId)) errors.clientHostId = 'connect this host first (Test connection)';
      for (const [field, message] of Object.entries(clientPickErrors(wizardClients(draft)))) errors[field] ??= message;
      draft.moreClients.forEach((client, index) => {
        if (client.hostId !== null && !context.connected(client.hostId)) errors[`client-${index + 1}`] ??= 'connect this host first (Test connection)';
      });
      if (draft.serverHostId === null) errors.serverHostId = 'choose the host that runs the server under test';
      else if (!context.connected(draft.serverHostId)) errors.serverHostId = 'connect this host first (Test connection)';
      break;
    case 'presets': {
      const clientIds = clientHostIds(draft);
      const hostsOf = { client: clientIds, server: draft.serverHostId === null ? [] : [draft.serverHostId] };
      for (const role of ['client', 'server'] as const) {
        if (!(role === 'client' ? draft.clientPreset : draft.serverPreset)) continue;
        // Each host the preset goes to needs its plan; with several clients the message says which.
        hostsOf[role].forEach((hostId, index) => {
          const plan = context.presetPlan(role, hostId);
          const which = hostsOf[role].length > 1 ? `client ${index + 1}: ` : '';
          if (plan === null) errors[`${role}Preset`] ??= `${which}waiting for the plan of this preset on the host`;
          else if (typeof plan === 'string') errors[`${role}Preset`] ??= `${which}${plan}`;
        });
      }
      if (draft.serverHostId !== null && clientIds.includes(draft.serverHostId) && draft.clientPreset && draft.serverPreset) {
        errors.serverPreset = `${clientIds.length > 1 ? 'a client' : 'the client'} and the server are one host: choose one preset for it`;
      }
      break;
    }
    case 'templates':
      if (draft.targets.length === 0) errors.targets = 'choose at least one template and variant';
      if (draft.port.trim() !== '' && portOf(draft) === null) errors.port = 'must be a whole number between 1 and 65535, or empty';
      break;
    case 'load': {
      const profile = profileOf({ ...draft.profile, target: STUDY_TARGET_PLACEHOLDER });
      for (const [path, message] of Object.entries(profileFieldErrors(profile))) {
        errors[fieldOfError(path, draft.profile)] ??= message;
      }
      for (const [field, message] of Object.entries(requestDraftErrors(draft.requests, profile))) errors[field] ??= message;
      break;
    }
    case 'review': {
      const name = SessionName.safeParse(nameOf(draft, context));
      if (!name.success) errors.name = name.error.issues[0]?.message ?? 'is not a valid name';
      if (repeatsOf(draft) === null) errors.repeats = `must be a whole number from 1 to ${MAX_REPEATS}`;
      break;
    }
    case 'run':
      break;
  }
  return errors;
}

/** A study's templates (those this Benchlab has) and host presets, as the wizard's answers. */
export function studyChoices(
  study: Pick<Study, 'templates' | 'presets'>,
  draft: Pick<WizardDraft, 'clientHostId' | 'clientWeight' | 'moreClients' | 'serverHostId'>,
  knownTemplate: (templateId: string, variant: string) => boolean,
): Pick<WizardDraft, 'targets' | 'clientPreset' | 'serverPreset'> {
  return {
    targets: study.templates.filter((target) => knownTemplate(target.templateId, target.variant)),
    clientPreset: study.presets.client,
    // One host takes one preset: the client's, when the server is one of the clients.
    serverPreset: draft.serverHostId !== null && clientHostIds(draft).includes(draft.serverHostId) ? null : study.presets.server,
  };
}

/** Everything a study proposes at once, for choosing it first: its profile, templates and presets. */
export function withStudy(draft: WizardDraft, study: Study, knownTemplate: (templateId: string, variant: string) => boolean): Partial<WizardDraft> {
  return { studyId: study.id, profile: draftOfProfile(study.profile), capacity: study.capacity ?? null, requests: draftsOfRequests(study.profile.requests), ...studyChoices(study, draft, knownTemplate) };
}

/** The plan for the back end; call once every step before review is clean. */
export function specOf(draft: WizardDraft, context: WizardContext): PlanSpecInput {
  /** The role's preset with its planId on each of the hosts, or null while one of them has none. */
  const planned = (role: 'client' | 'server', hostIds: number[]) => {
    const presetId = role === 'client' ? draft.clientPreset : draft.serverPreset;
    const planIds = hostIds.map((hostId) => context.presetPlan(role, hostId)).map((plan) => (plan && typeof plan !== 'string' ? plan.planId : null));
    if (!presetId || planIds.length === 0 || planIds.some((planId) => planId === null)) return null;
    return { presetId, planIds: planIds as string[] };
  };
  const clientPlans = planned('client', clientHostIds(draft));
  const serverPlans = planned('server', draft.serverHostId === null ? [] : [draft.serverHostId]);
  return {
    name: nameOf(draft, context),
    clientHostId: draft.clientHostId ?? 0,
    ...(draft.moreClients.length > 0
      ? {
          clients: wizardClients(draft).map((client) => {
            const weight = weightOf(client);
            return { hostId: client.hostId ?? 0, ...(typeof weight === 'number' ? { weight } : {}) };
          }),
        }
      : {}),
    serverHostId: draft.serverHostId ?? 0,
    presets: {
      client: clientPlans ? { presetId: clientPlans.presetId, planId: clientPlans.planIds[0]!, ...(clientPlans.planIds.length > 1 ? { morePlanIds: clientPlans.planIds.slice(1) } : {}) } : null,
      server: serverPlans ? { presetId: serverPlans.presetId, planId: serverPlans.planIds[0]! } : null,
    },
    revertPresets: draft.revertPresets,
    targets: draft.targets.map((target) => ({
      templateId: target.templateId,
      variant: target.variant,
      ...(target.knobs ? { knobs: target.knobs } : {}),
      ...(portOf(draft) ? { port: portOf(draft)! } : {}),
    })),
    profile: profileOf({ ...draft.profile, target: STUDY_TARGET_PLACEHOLDER }),
    ...(draft.capacity ? { capacity: draft.capacity } : {}),
    ...(draft.requests.length > 0 ? { requests: namedRequestsOf(draft.requests, profileOf({ ...draft.profile, target: STUDY_TARGET_PLACEHOLDER })) } : {}),
    studyId: draft.studyId,
    tags: parseTags(draft.tags),
    repeats: repeatsOf(draft) ?? Number(draft.repeats),
    engine: draft.engine,
  };
}

/** The host ids of the clients chosen so far, in order (a row with no host yet left out). */
export function clientHostIds(draft: Pick<WizardDraft, 'clientHostId' | 'clientWeight' | 'moreClients'>): number[] {
  return wizardClients(draft).flatMap((client) => (client.hostId === null ? [] : [client.hostId]));
}

/** Every load client of the draft, the first one (clientHostId) included. */
export function wizardClients(draft: Pick<WizardDraft, 'clientHostId' | 'clientWeight' | 'moreClients'>): ClientPick[] {
  return [{ hostId: draft.clientHostId, weight: draft.clientWeight }, ...draft.moreClients];
}

/** The plan as the back end would take it, or the first problem in words. */
export function checkedSpec(draft: WizardDraft, context: WizardContext): { spec: PlanSpec } | { error: string } {
  const parsed = PlanSpec.safeParse(specOf(draft, context));
  if (parsed.success) return { spec: parsed.data };
  const issue = parsed.error.issues[0]!;
  return { error: `${issue.path.map(String).join('.') || 'plan'}: ${issue.message}` };
}

/**
 * The wizard set up again from a saved session (a draft from Duplicate, or any session): its hosts,
 * its profile, the templates its runs used, and its name; back at the first step to check them.
 */
export function wizardFromSession(current: WizardDraft, session: Session, runs: ReadonlyArray<{ templateId: string; variant: string }>): WizardDraft {
  const profile = LoadProfile.safeParse(session.config.profile);
  // A session of several clients recorded each with the weight it ran with.
  const recorded = RecordedClient.array().safeParse(session.config.clients);
  const clients = recorded.success && recorded.data.length > 1 ? recorded.data : null;
  const targets: WizardTarget[] = [];
  for (const run of runs) {
    if (run.templateId === 'external' || targets.some((target) => target.templateId === run.templateId && target.variant === run.variant)) continue;
    targets.push({ templateId: run.templateId, variant: run.variant });
  }
  return {
    ...current,
    step: 'hosts',
    clientHostId: session.clientHostId,
    clientWeight: clients ? String(clients[0]!.weight) : '',
    moreClients: clients ? clients.slice(1).map((client) => ({ hostId: client.hostId, weight: String(client.weight) })) : [],
    serverHostId: session.serverHostId,
    targets: targets.length > 0 ? targets : current.targets,
    studyId: null,
    profile: profile.success ? { ...draftOfProfile(profile.data), target: '' } : current.profile,
    // The session ran the rates its calibration chose: they are its profile now.
    capacity: null,
    // A session sent one request: the profile's.
    requests: [],
    name: session.name,
    tags: session.tags.join(', '),
  };
}
