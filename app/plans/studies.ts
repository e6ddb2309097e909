// Studies: ready-made experiments the wizard starts from — the five seeds of DESIGN.md, each with
// what was done, the templates and variants it compared, the presets of its hosts, and a load
// profile without a target (the wizard's deployments give the address). Shipped in
// resources/studies/ and checked here; a broken file is reported, never fatal.

import { z } from 'zod';
import { LoadProfile } from '../runs/load-profile.ts';
import { PresetId } from '../presets/presets.ts';

/** Stands in for the address while a study's profile is checked: the plan puts each deployment's own. */
export const STUDY_TARGET_PLACEHOLDER = 'http://127.0.0.1:8080';

export type StudyProfile = Omit<LoadProfile, 'target'>;

const StudyProfileShape = z.record(z.string(), z.unknown()).transform((raw, ctx): StudyProfile => {
  const parsed = LoadProfile.safeParse({ ...raw, target: STUDY_TARGET_PLACEHOLDER });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    return z.NEVER;
  }
  const { target: _placeholder, ...profile } = parsed.data;
  return profile;
});

export const Study = z
  .object({
    id: z.string().regex(/^[a-z][a-z0-9-]{0,63}$/, 'must be lower-case letters, digits and "-"'),
    name: z.string().trim().min(1, 'is required').max(120, 'must be at most 120 characters'),
    /** What the original benchmark did, in words. */
    seed: z.string().max(2000, 'is too long'),
    templates: z
      .array(z.object({ templateId: z.string().min(1), variant: z.string().min(1) }).strict())
      .min(1, 'needs at least one template'),
    presets: z.object({ client: PresetId.nullable(), server: PresetId.nullable() }).strict(),
    profile: StudyProfileShape,
  })
  .strict();
export type Study = z.output<typeof Study>;

export const StudyCatalog = z.object({
  studies: z.array(Study),
  broken: z.array(z.object({ file: z.string(), error: z.string() })),
});
export type StudyCatalog = z.infer<typeof StudyCatalog>;

/** One study file's text → the study, or what is wrong with it in one line. */
export function parseStudy(text: string): Study | string {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return `not JSON: ${(error as Error).message}`;
  }
  const parsed = Study.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  return `${issue.path.map(String).join('.') || 'study'}: ${issue.message}`;
}
