// A plan file checked against what is installed: the study it names, and each template's (and the
// capacity's reference server's) variant, knobs and port against that template's manifest. Pure, so it runs on the file's text before
// anything connects (every problem with its line and column), and again on the resolved plan. It
// reads the value warily: a field the schema already refuses is left to the schema's message.

import { checkDeployChoice, type DeployChoice, type KnobValue, type Manifest } from '../templates/templates.ts';
import type { Study } from './studies.ts';

export interface PlanFileCatalogs {
  templates: readonly Manifest[];
  studies: readonly Pick<Study, 'id'>[];
}

export interface CatalogIssue {
  path: Array<string | number>;
  /** The key itself is wrong (an unknown knob): its place is the key's, not the value's. */
  atKey: boolean;
  message: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isKnobValue(value: unknown): value is KnobValue {
  return typeof value === 'number' || typeof value === 'boolean' || typeof value === 'string';
}

/** A templates entry as written (`node:sync`, or a map) → the template id and the choice to check. */
function entryChoice(entry: unknown): { template: string; choice: DeployChoice } | null {
  if (typeof entry === 'string') {
    const colon = entry.indexOf(':');
    return colon < 0 ? null : { template: entry.slice(0, colon), choice: { variant: entry.slice(colon + 1) } };
  }
  if (!isRecord(entry) || typeof entry.template !== 'string') return null;
  const knobs = isRecord(entry.knobs) ? Object.fromEntries(Object.entries(entry.knobs).filter(([, value]) => isKnobValue(value))) : undefined;
  return {
    template: entry.template,
    choice: {
      ...(typeof entry.variant === 'string' ? { variant: entry.variant } : {}),
      ...(knobs ? { knobs: knobs as Record<string, KnobValue> } : {}),
      ...(typeof entry.port === 'number' ? { port: entry.port } : {}),
    },
  };
}

/** Every way the plan's study and templates do not match what is installed (none when they all do). */
export function catalogIssues(plan: unknown, catalogs: PlanFileCatalogs): CatalogIssue[] {
  if (!isRecord(plan)) return [];
  const issues: CatalogIssue[] = [];
  // A study's own file carries a block; only a study named by its id is looked up.
  if (typeof plan.study === 'string' && !catalogs.studies.some((study) => study.id === plan.study)) {
    const known = catalogs.studies.map((study) => study.id).join(', ') || 'none are installed';
    issues.push({ path: ['study'], atKey: false, message: `there is no study "${plan.study}" (${known})` });
  }
  if (Array.isArray(plan.templates)) plan.templates.forEach((entry: unknown, index) => issues.push(...entryIssues(entry, ['templates', index], catalogs)));
  // The capacity's reference server is deployed like a template: the same checks.
  if (isRecord(plan.capacity) && plan.capacity.reference !== undefined) issues.push(...entryIssues(plan.capacity.reference, ['capacity', 'reference'], catalogs));
  return issues;
}

/** One template entry (a templates item, or the capacity's reference) against the installed templates. */
function entryIssues(entry: unknown, at: Array<string | number>, catalogs: PlanFileCatalogs): CatalogIssue[] {
  const read = entryChoice(entry);
  if (!read) return [];
  const manifest = catalogs.templates.find((candidate) => candidate.id === read.template);
  if (!manifest) {
    const known = catalogs.templates.map((candidate) => candidate.id).join(', ');
    return [{ path: [...at, 'template'], atKey: false, message: `there is no template "${read.template}" (${known})` }];
  }
  // A missing variant is the schema's to say ("is required"); the knobs are still checked.
  const checked = checkDeployChoice(manifest, { variant: manifest.defaultVariant, ...read.choice });
  if (checked.ok) return [];
  return checked.problems.map((problem) => ({ path: [...at, ...problem.path], atKey: problem.unknownKnob === true, message: problem.message }));
}
