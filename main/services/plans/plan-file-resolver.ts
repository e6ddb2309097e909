// Turns a plan file into the PlanSpec the plan runner takes, as the wizard would have built it:
// the study the file names fills what the file leaves out (templates, presets, profile), each
// template, variant and knob is checked against the template catalog, and each preset is planned on
// each host it goes to — the client preset on every client (the planIds the runner applies only if
// still true). Hosts (one or several load clients,
// the server) come in already resolved and connected (naming hosts is the front door's business). Every problem is reported at once, each
// with the file's field it belongs to.

import { catalogIssues } from '../../../app/plans/plan-file-catalog.ts';
import { capacityBlockOf, capacityStepsOf, STUDY_TARGET_PLACEHOLDER, type PlanFile, type PlanFileProblem, type StudyProfile } from '../../../app/plans/plan-file.ts';
import { PlanSpec, planClientIds, type PlanSpecInput } from '../../../app/plans/plan.ts';
import type { ReportTarget } from '../../../app/plans/plan-report.ts';
import type { RunClient } from '../../../app/runs/runs-contract.ts';
import type { StudyCatalog } from '../../../app/plans/studies.ts';
import type { TemplateCatalog } from '../../../app/templates/templates-contract.ts';
import type { PresetService } from '../presets/preset-service.ts';

export interface PlanFileResolverDeps {
  templates: { list(): Promise<TemplateCatalog> };
  presets: Pick<PresetService, 'plan'>;
  studies: () => Promise<StudyCatalog>;
}

export interface ResolveRequest {
  plan: PlanFile;
  /** The load client; with several, the first of `clients`. */
  clientHostId: number;
  /** Several load clients with their weights (two or more); absent: clientHostId alone. */
  clients?: RunClient[];
  serverHostId: number;
}

export type PlanResolution = { ok: true; spec: PlanSpec; targets: ReportTarget[] } | { ok: false; problems: PlanFileProblem[] };

type Role = 'client' | 'server';

function problem(field: string, message: string): PlanFileProblem {
  return { line: null, column: null, field, message };
}

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/\.$/, '');
}

/** The file's profile as the plan's: its target a placeholder, its named requests beside it. */
function profileAndRequests(profile: StudyProfile | undefined): Pick<PlanSpecInput, 'profile' | 'requests'> {
  const { requests, ...rest } = profile ?? ({} as StudyProfile);
  return { profile: { ...rest, target: STUDY_TARGET_PLACEHOLDER } as PlanSpecInput['profile'], ...(requests ? { requests } : {}) };
}

/** A PlanSpec path in the file's words: `targets.1.variant` is `templates[1].variant`. */
function fileField(path: ReadonlyArray<PropertyKey>): string {
  const [head, ...rest] = path;
  const renamed = head === 'targets' ? 'templates' : head === 'studyId' ? 'study' : head === 'clientHostId' ? 'hosts.client' : head === 'clients' ? 'hosts.clients' : head === 'serverHostId' ? 'hosts.server' : head === 'requests' ? 'profile.requests' : String(head ?? 'plan');
  return rest.reduce<string>((field, key) => (typeof key === 'number' ? `${field}[${key}]` : `${field}.${String(key)}`), renamed);
}

export async function resolvePlanFile(deps: PlanFileResolverDeps, request: ResolveRequest): Promise<PlanResolution> {
  const { plan } = request;
  const problems: PlanFileProblem[] = [];

  // A study's own file (with its study block) carries everything itself: only a study named by
  // id alone is looked up among the shipped ones.
  const named = plan.study && !plan.studyInfo ? plan.study : undefined;
  const study = named ? (await deps.studies()).studies.find((candidate) => candidate.id === named) : undefined;
  if (named && !study) {
    const known = (await deps.studies()).studies.map((candidate) => candidate.id);
    problems.push(problem('study', `there is no study "${plan.study}" (${known.join(', ') || 'none are installed'})`));
  }
  const templates = plan.templates ?? study?.templates.map((entry) => ({ template: entry.templateId, variant: entry.variant, knobs: entry.knobs, port: undefined })) ?? [];
  const profile = plan.profile ?? study?.profile;
  // Capacity steps go with the profile they replace the rates of: the file's own, else the study's.
  const capacity = plan.capacity ? capacityStepsOf(plan.capacity) : plan.profile ? undefined : study?.capacity;
  const presetIds: Record<Role, string | null> = {
    client: plan.presets?.client !== undefined ? plan.presets.client : (study?.presets.client ?? null),
    server: plan.presets?.server !== undefined ? plan.presets.server : (study?.presets.server ?? null),
  };

  const catalog = await deps.templates.list();
  // The same check the file had before anything connected (plan-file-catalog.ts), here on what the
  // study filled in as well.
  const studies = named ? (await deps.studies()).studies : [];
  const reference = capacity ? { ...capacityBlockOf(capacity).reference } : undefined;
  const issues = catalogIssues({ study: named, templates: templates.map((entry) => ({ ...entry })), ...(reference ? { capacity: { reference } } : {}) }, { templates: catalog.templates, studies });
  for (const issue of issues.filter((entry) => entry.path[0] !== 'study')) problems.push(problem(fileField(issue.path), issue.message));
  const targets: ReportTarget[] = [];
  templates.forEach((entry, index) => {
    const manifest = catalog.templates.find((candidate) => candidate.id === entry.template);
    if (!manifest || issues.some((issue) => issue.path[0] === 'templates' && issue.path[1] === index)) return;
    const variant = manifest.variants.find((candidate) => candidate.id === entry.variant);
    targets.push({ templateId: entry.template, variant: entry.variant, knobs: entry.knobs, label: `${manifest.name} · ${variant?.name ?? entry.variant}` });
  });

  const clients = request.clients && request.clients.length > 1 ? request.clients : undefined;
  const clientIds = planClientIds({ clientHostId: request.clientHostId, clients });
  /** The preset's planId on each host, in order; null when there is no preset or one cannot be planned. */
  const planOn = async (role: Role, hostIds: number[]): Promise<string[] | null> => {
    const presetId = presetIds[role];
    if (presetId === null) return null;
    const planIds = await Promise.all(
      hostIds.map(async (hostId, index) => {
        try {
          return (await deps.presets.plan(presetId, hostId)).planId;
        } catch (error) {
          const which = role === 'server' ? 'the server host' : hostIds.length > 1 ? `client ${index + 1} (hosts.clients[${index}])` : 'the client host';
          problems.push(problem(`presets.${role}`, `cannot plan preset "${presetId}" on ${which}: ${messageOf(error)}`));
          return null;
        }
      }),
    );
    return planIds.every((planId) => planId !== null) ? (planIds as string[]) : null;
  };
  const [clientPlans, serverPlans] = await Promise.all([planOn('client', clientIds), planOn('server', [request.serverHostId])]);

  const input: PlanSpecInput = {
    name: plan.name,
    clientHostId: request.clientHostId,
    ...(clients ? { clients } : {}),
    serverHostId: request.serverHostId,
    presets: {
      client: presetIds.client && clientPlans ? { presetId: presetIds.client, planId: clientPlans[0]!, ...(clients ? { morePlanIds: clientPlans.slice(1) } : {}) } : null,
      server: presetIds.server && serverPlans ? { presetId: presetIds.server, planId: serverPlans[0]! } : null,
    },
    revertPresets: plan.revertPresets,
    targets: templates.map((entry) => ({ templateId: entry.template, variant: entry.variant, knobs: entry.knobs, ...(entry.port !== undefined ? { port: entry.port } : {}) })),
    ...profileAndRequests(profile),
    ...(capacity ? { capacity } : {}),
    ...(plan.engine ? { engine: plan.engine } : {}),
    repeats: plan.repeats,
    studyId: plan.study ?? null,
    tags: plan.tags,
  };
  if (!profile && !plan.study) problems.push(problem('profile', 'is required (or name a study that gives it)'));
  const parsed = PlanSpec.safeParse(input);
  // What the checks above already said is not said twice (a missing profile, a template not found).
  if (!parsed.success && profile) {
    for (const issue of parsed.error.issues) {
      const field = fileField(issue.path);
      if (!problems.some((earlier) => earlier.field.startsWith(field) || field.startsWith(earlier.field))) problems.push(problem(field, issue.message));
    }
  }
  if (problems.length > 0 || !parsed.success) return { ok: false, problems };
  return { ok: true, spec: parsed.data, targets };
}
