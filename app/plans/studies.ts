// Studies: ready-made experiments the wizard starts from — the five classic hand-made benchmarks
// Benchlab redoes (docs/studies.md) and the TechEmpower-style database tests (`techempower`: db,
// queries, updates and fortunes as its named requests). Each is a plan file (resources/studies/<id>.yaml, app/plans/plan-file.ts) with a `study:` block saying what
// it is and what its seed did, the templates and variants it compared, the presets of its hosts and
// a load profile without a target, and no hosts (whoever runs it chooses them). Read here into what
// the wizard shows; a broken file is reported, never fatal.

import { z } from 'zod';
import { PresetId } from '../presets/presets.ts';
import { PlanTarget } from './plan.ts';
import { capacityStepsOf, parsePlanFile, StudyId, StudyProfile, type PlanFile, type PlanFileProblem } from './plan-file.ts';
import { CapacitySteps } from './calibration.ts';
import { PublishedResults } from './published-results.ts';

/** A study as the wizard uses it (and the contract carries it). */
export const Study = z
  .object({
    id: StudyId,
    name: z.string(),
    /** What the original benchmark did, in words. */
    seed: z.string(),
    templates: z.array(PlanTarget.pick({ templateId: true, variant: true, knobs: true })),
    presets: z.object({ client: PresetId.nullable(), server: PresetId.nullable() }).strict(),
    profile: StudyProfile,
    /** Steps as multiples of a capacity measured first on a reference server, in place of the profile's rate and sweep. */
    capacity: CapacitySteps.optional(),
    /** What the seed published on its own hardware (resources/studies/published/<id>.yaml), if shipped. */
    published: PublishedResults.nullable().default(null),
  })
  .strict();
export type Study = z.output<typeof Study>;

export const StudyCatalog = z.object({
  studies: z.array(Study),
  broken: z.array(z.object({ file: z.string(), error: z.string() })),
});
export type StudyCatalog = z.infer<typeof StudyCatalog>;

function inWords(problems: readonly PlanFileProblem[]): string {
  return problems.map((problem) => `${problem.field}: ${problem.message}${problem.line === null ? '' : ` (line ${problem.line})`}`).join('; ');
}

/** A parsed plan file as a study, or what keeps it from being one. */
export function studyOfPlanFile(plan: PlanFile): Study | string {
  const problems: string[] = [];
  if (!plan.study || !plan.studyInfo) problems.push('study: a study file has a study block with its id, name and seed');
  if (plan.hosts) problems.push('hosts: a study names no hosts (whoever runs it chooses them)');
  if (!plan.templates) problems.push('templates: is required in a study file');
  if (!plan.profile) problems.push('profile: is required in a study file');
  plan.templates?.forEach((entry, index) => {
    if (entry.port !== undefined) problems.push(`templates[${index}].port: a study leaves the port to the template's default`);
  });
  if (problems.length > 0 || !plan.study || !plan.studyInfo || !plan.templates || !plan.profile) return problems.join('; ');
  return {
    id: plan.study,
    name: plan.studyInfo.name,
    seed: plan.studyInfo.seed,
    templates: plan.templates.map((entry) => ({ templateId: entry.template, variant: entry.variant, knobs: entry.knobs })),
    presets: { client: plan.presets?.client ?? null, server: plan.presets?.server ?? null },
    profile: plan.profile,
    ...(plan.capacity ? { capacity: capacityStepsOf(plan.capacity) } : {}),
    published: null,
  };
}

/** One study file's text → the study, or every problem with it in one line (`field: message (line n)`). */
export function parseStudy(text: string): Study | string {
  const parsed = parsePlanFile(text);
  return parsed.ok ? studyOfPlanFile(parsed.plan) : inWords(parsed.problems);
}
