// Plan files: the wizard's plan as a versioned YAML (or JSON) document that a person writes, the
// wizard saves and opens, and `benchlab run` runs; the five studies are plan files too (a `study:`
// block, no hosts). The schema (strict: an unknown key is a problem) and the parser that reports
// every problem at once with its line and column; the serialiser, whose output reads back to the
// same plan, is plan-file-format.ts. The file names hosts as text (a stored name, user@host[:port],
// an ~/.ssh/config alias): who runs it resolves them. docs/plan-files.md documents the format.

import { isAlias, isMap, isScalar, isSeq, LineCounter, parseDocument, Document, visit, type Node, type YAMLError } from 'yaml';
import { z } from 'zod';
import { FORBIDDEN_KEYS, utf8ByteLength } from '../common/safe-json.ts';
import { hasControlCharacters } from '../common/text.ts';
import { loginRefProblem } from '../hosts/host-ref.ts';
import { PresetId } from '../presets/presets.ts';
import { EngineChoice } from '../runs/engine-choice.ts';
import { LoadProfile, RequestSpec } from '../runs/load-profile.ts';
import { stableJson } from '../sessions/configuration-key.ts';
import { Tags } from '../sessions/session-library.ts';
import { SessionName } from '../runs/session-identity.ts';
import { TemplateId } from '../templates/templates-contract.ts';
import { Port } from '../templates/templates.ts';
import { MAX_PLAN_TARGETS, PlanSpec, PlanTarget, targetKey } from './plan.ts';
import { namedRequestIssues, PlanRequests, requestSpecOf, type NamedRequest } from './plan-requests.ts';
import { catalogIssues, type PlanFileCatalogs } from './plan-file-catalog.ts';
import { parseThreshold } from './thresholds.ts';
import { CapacitySteps } from './calibration.ts';

export const PLAN_FILE_VERSION = 1;
/** Far above any real plan (a study is about 1 KiB); a bigger file is refused before it is parsed. */
export const MAX_PLAN_FILE_BYTES = 256 * 1024;
/** Aliases resolved at most: a few are a convenience, thousands are an expansion bomb. */
const MAX_ALIASES = 64;
/** YAML syntax problems listed at most: a broken file can hold thousands, the first ones say enough. */
const MAX_SYNTAX_PROBLEMS = 20;
const MAX_THRESHOLDS = 50;

/** Stands in for the address while a file's profile is checked: the plan puts each deployment's own. */
export const STUDY_TARGET_PLACEHOLDER = 'http://127.0.0.1:8080';

/**
 * A load profile without its target (each deployment gives the address), as a plan file or study
 * holds it; with `requests` (named requests, each run as its own session) its `request` is the first's.
 */
export type StudyProfile = Omit<LoadProfile, 'target'> & { requests?: NamedRequest[] };

/** zod's own messages for a wrong or missing value, in the words the rest of Benchlab uses. */
const EXPECTED: Readonly<Record<string, string>> = {
  string: 'must be text',
  number: 'must be a number',
  boolean: 'must be true or false',
  object: 'must be a map of fields (key: value)',
  record: 'must be a map of fields (key: value)',
  array: 'must be a list',
};

function planFileMessage(issue: z.core.$ZodRawIssue): string | undefined {
  if (issue.code !== 'invalid_type') return undefined;
  if (issue.input === undefined) return 'is required';
  return EXPECTED[issue.expected] ?? undefined;
}

/** Checks `value` with `schema` from inside another schema, its issues kept with their paths. */
function checkedWith<T extends z.ZodType>(schema: T, value: unknown, ctx: z.RefinementCtx): z.output<T> {
  const parsed = schema.safeParse(value, { error: planFileMessage });
  if (parsed.success) return parsed.data;
  // The inner issues go on as they are (an unknown key stays one), their paths below this value.
  for (const issue of parsed.error.issues) ctx.addIssue(issue as Parameters<typeof ctx.addIssue>[0]);
  return z.NEVER;
}

/** Stands in for the request while a profile with broken named requests is checked for its other fields. */
const PLACEHOLDER_REQUEST = { path: '/' };

/**
 * LoadProfile without `target`; a target written anyway is dropped (each deployment gives its own).
 * Either `request` (one request) or `requests` (named requests, plan-requests.ts), never both.
 */
export const StudyProfile = z.record(z.string(), z.unknown()).transform((raw, ctx): StudyProfile => {
  if (raw.requests === undefined) {
    const { target: _placeholder, ...rest } = checkedWith(LoadProfile, { ...raw, target: STUDY_TARGET_PLACEHOLDER }, ctx);
    return rest;
  }
  const { requests: written, ...others } = raw;
  const checked = z.object({ requests: PlanRequests }).safeParse({ requests: written }, { error: planFileMessage });
  const requests = checked.success ? checked.data.requests : null;
  for (const issue of checked.success ? [] : checked.error.issues) ctx.addIssue(issue as Parameters<typeof ctx.addIssue>[0]);
  const first = requests?.[0];
  // A parsed profile read again (a study over the contract) holds both, its request the first's: that is one request.
  if (others.request !== undefined && !(first && stableJson(RequestSpec.safeParse(others.request).data) === stableJson(requestSpecOf(first)))) {
    ctx.addIssue({ code: 'custom', path: ['request'], message: 'give either request or requests, not both' });
  }
  const profile = checkedWith(LoadProfile, { ...others, request: first ? requestSpecOf(first) : PLACEHOLDER_REQUEST, target: STUDY_TARGET_PLACEHOLDER }, ctx);
  if (!requests || profile === z.NEVER) return z.NEVER;
  // Each request must fit the load it runs with, and its own load the profile's sweep, as the profile's do.
  requests.forEach((named, index) => {
    const issues = namedRequestIssues(profile, named, planFileMessage);
    for (const issue of issues.request) ctx.addIssue({ code: 'custom', path: ['requests', index, ...issue.path], message: issue.message });
    for (const issue of issues.load) {
      ctx.addIssue({ code: 'custom', path: ['requests', index, 'load'], message: `with this load, the profile's ${fieldName(issue.path)} ${issue.message}` });
    }
  });
  const { target: _placeholder, ...rest } = profile;
  return { ...rest, requests };
});

const HostRef = z
  .string()
  .trim()
  .min(1, 'is required')
  .max(300, 'is too long')
  .refine((text) => !hasControlCharacters(text), 'must not contain line breaks or control characters')
  .superRefine((text, ctx) => {
    // A login (user@host[:port]) is checked here, before anything is stored or connected.
    const problem = loginRefProblem(text);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/** A run's load clients at most (as runs.start takes them). */
export const MAX_PLAN_CLIENTS = 16;

/** `lab-client` is short for `{ host: lab-client }`; a weight is the client's share relative to the others. */
const ClientEntry = z.preprocess(
  (value) => (typeof value === 'string' ? { host: value } : value),
  z.object({ host: HostRef, weight: z.number().gt(0, 'must be above 0').max(1000, 'must be at most 1000').optional() }).strict(),
);
export type PlanFileClient = z.output<typeof ClientEntry>;

const PlanHosts = z
  .object({
    client: HostRef.optional(),
    clients: z.array(ClientEntry).min(1, 'needs at least one client').max(MAX_PLAN_CLIENTS, `holds at most ${MAX_PLAN_CLIENTS} clients`).optional(),
    server: HostRef.optional(),
  })
  .strict()
  .superRefine((hosts, ctx) => {
    if (hosts.client !== undefined && hosts.clients !== undefined) ctx.addIssue({ code: 'custom', path: ['clients'], message: 'give either client or clients, not both' });
    const seen = new Set<string>();
    hosts.clients?.forEach((entry, index) => {
      if (seen.has(entry.host)) ctx.addIssue({ code: 'custom', path: ['clients', index], message: `names ${entry.host} again: each client host once` });
      seen.add(entry.host);
    });
  });

/** The plan file's load clients as references with their weights (none when it names no client). */
export function planFileClients(hosts: PlanFile['hosts']): PlanFileClient[] {
  return hosts?.clients ?? (hosts?.client ? [{ host: hosts.client }] : []);
}

export const StudyId = z.string().regex(/^[a-z][a-z0-9-]{0,63}$/, 'must be a study id (lower-case letters, digits and "-")');

/** In a study's own file: what it is. Elsewhere `study:` is just the id of a shipped study. */
const StudyBlock = z
  .object({
    id: StudyId,
    name: z.string().trim().min(1, 'is required').max(120, 'must be at most 120 characters'),
    /** What the original benchmark did, in words. */
    seed: z.string().max(2000, 'is too long'),
  })
  .strict();

const StudyField = z.unknown().transform((value, ctx) => (typeof value === 'string' ? { id: checkedWith(StudyId, value, ctx) } : checkedWith(StudyBlock, value, ctx)));

const LongTemplate = z
  .object({
    template: TemplateId,
    variant: PlanTarget.shape.variant,
    knobs: PlanTarget.shape.knobs,
    port: Port.optional(),
  })
  .strict();
export type PlanFileTemplate = z.output<typeof LongTemplate>;

/** `node:sync` is short for `{ template: node, variant: sync }`. */
const TemplateEntry = z.preprocess((value) => {
  if (typeof value !== 'string') return value;
  const colon = value.indexOf(':');
  return colon < 0 ? { template: value } : { template: value.slice(0, colon), variant: value.slice(colon + 1) };
}, LongTemplate);

/**
 * Steps as multiples of a capacity measured first (calibration.ts): `reference` is the server the
 * calibration deploys (`node:sync`, or a map with knobs), `times` the multiples in the order they run.
 */
const CapacityBlock = z
  .object({ reference: TemplateEntry, times: CapacitySteps.shape.times, maxS: CapacitySteps.shape.maxS })
  .strict()
  .superRefine((block, ctx) => {
    if (block.reference.port !== undefined) ctx.addIssue({ code: 'custom', path: ['reference', 'port'], message: "the reference runs on its template's default port" });
  });
export type PlanFileCapacity = z.output<typeof CapacityBlock>;

/** The file's capacity block as the plan takes it (calibration.ts CapacitySteps). */
export function capacityStepsOf(block: PlanFileCapacity): CapacitySteps {
  const { template, variant, knobs } = block.reference;
  return { reference: { templateId: template, variant, knobs }, times: block.times, maxS: block.maxS };
}

/** The plan's capacity steps as a file writes them. */
export function capacityBlockOf(steps: CapacitySteps): PlanFileCapacity {
  const { templateId, variant, knobs } = steps.reference;
  return { reference: { template: templateId, variant, knobs }, times: steps.times, maxS: steps.maxS };
}

/**
 * With capacity steps the profile's open load gives no rate (the steps' rates come from the
 * capacity): a stand-in keeps the profile a valid one until the calibration chooses them.
 */
export const CAPACITY_RATE_PLACEHOLDER = 1;

function withCapacityRate(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const plan = value as Record<string, unknown>;
  const profile = plan.profile as { load?: Record<string, unknown> } | undefined;
  const load = profile?.load;
  if (plan.capacity === undefined || typeof load !== 'object' || load === null || load.model !== 'open' || load.rate !== undefined || load.requests !== undefined) return value;
  return { ...plan, profile: { ...profile, load: { ...load, rate: CAPACITY_RATE_PLACEHOLDER } } };
}

const ThresholdText = z.string().superRefine((text, ctx) => {
  const parsed = parseThreshold(text);
  if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.message });
});

const PlanFileShape = z.preprocess(
  withCapacityRate,
  z
    .object({
      version: z.literal(PLAN_FILE_VERSION, {
        error: (issue) => (issue.input === undefined ? `is required: start the file with "version: ${PLAN_FILE_VERSION}"` : `must be ${PLAN_FILE_VERSION}`),
      }),
      name: SessionName,
      tags: Tags.default([]),
      study: StudyField.optional(),
      hosts: PlanHosts.optional(),
      presets: z.object({ client: PresetId.nullable().optional(), server: PresetId.nullable().optional() }).strict().optional(),
      revertPresets: z.boolean().default(true),
      templates: z
        .array(TemplateEntry)
        .min(1, 'needs at least one template')
        .max(MAX_PLAN_TARGETS, `holds at most ${MAX_PLAN_TARGETS} templates or variants`)
        .optional(),
      profile: StudyProfile.optional(),
      capacity: CapacityBlock.optional(),
      engine: EngineChoice.optional(),
      repeats: PlanSpec.shape.repeats,
      thresholds: z.array(ThresholdText).max(MAX_THRESHOLDS, `holds at most ${MAX_THRESHOLDS} thresholds`).default([]),
    })
    .strict()
    .superRefine(
      (plan, ctx) => {
        // Runs even when other fields are wrong (every problem at once), so it reads them warily.
        for (const field of ['templates', 'profile'] as const) {
          if (plan[field] === undefined && plan.study === undefined) ctx.addIssue({ code: 'custom', path: [field], message: 'is required (or name a study that gives it)' });
        }
        if (!Array.isArray(plan.templates)) return;
        const seen = new Set<string>();
        (plan.templates as unknown[]).forEach((entry, index) => {
          const { template, variant, knobs } = (entry ?? {}) as Partial<PlanFileTemplate>;
          if (typeof template !== 'string' || typeof variant !== 'string') return;
          const key = targetKey({ templateId: template, variant, knobs });
          if (seen.has(key)) ctx.addIssue({ code: 'custom', path: ['templates', index], message: 'lists the same template, variant and knobs again' });
          seen.add(key);
        });
      },
      { when: (payload) => typeof payload.value === 'object' && payload.value !== null && !Array.isArray(payload.value) },
    ),
);

export const PlanFile = PlanFileShape.transform(({ study, ...plan }) => ({
  ...plan,
  /** The shipped study this plan starts from; in a study's own file, its id. */
  ...(study ? { study: study.id } : {}),
  /** Only in a study's own file: its name and what its seed did. */
  ...(study && 'name' in study ? { studyInfo: { name: study.name, seed: study.seed } } : {}),
}));
export type PlanFile = z.output<typeof PlanFile>;
export type PlanFileInput = z.input<typeof PlanFile>;

export interface PlanFileProblem {
  /** 1-based; null when the problem has no place in the text (the whole file is too big). */
  line: number | null;
  column: number | null;
  /** Where in the plan: `templates[1].variant`; `YAML` for a syntax problem, `plan` for the whole file. */
  field: string;
  message: string;
}
/** Where a field is written in the file's text (`['hosts', 'server']`), for problems found later (a host that is not there). */
export type PlanFilePlace = (path: ReadonlyArray<PropertyKey>) => { line: number; column: number } | null;
export type PlanFileParse = { ok: true; plan: PlanFile; at?: PlanFilePlace } | { ok: false; problems: PlanFileProblem[] };

type Path = ReadonlyArray<PropertyKey>;
type Place = { line: number; column: number } | null;

function fieldName(path: Path): string {
  let field = '';
  for (const key of path) field += typeof key === 'number' ? `[${key}]` : `${field ? '.' : ''}${String(key)}`;
  return field || 'plan';
}

/** Where a path's value (or, with `atKey`, its key) is written; as near as the file gets when it is missing. */
function locate(document: Document, path: Path, lines: LineCounter, atKey = false): Place {
  let node: unknown = document.contents;
  let offset: number | undefined = (node as Node | null)?.range?.[0];
  for (const [index, key] of path.entries()) {
    if (isAlias(node)) node = node.resolve(document);
    let next: unknown;
    if (isMap(node)) {
      const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === String(key));
      next = pair && (atKey && index === path.length - 1 ? pair.key : (pair.value ?? pair.key));
    } else if (isSeq(node) && typeof key === 'number') next = node.items[key];
    if (!next) break;
    node = next;
    offset = (next as Node).range?.[0] ?? offset;
  }
  if (offset === undefined) return null;
  const { line, col } = lines.linePos(offset);
  return { line, column: col };
}

function syntaxProblem(error: YAMLError): PlanFileProblem {
  const message = error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
  const place = error.linePos?.[0];
  return { line: place?.line ?? null, column: place?.col ?? null, field: 'YAML', message };
}

/** Keys that would reach an object's prototype: refused wherever they are written. */
function forbiddenKeyProblems(document: Document, lines: LineCounter): PlanFileProblem[] {
  const problems: PlanFileProblem[] = [];
  visit(document, {
    Pair(_, pair) {
      if (isScalar(pair.key) && FORBIDDEN_KEYS.has(String(pair.key.value))) {
        const { line, col } = lines.linePos(pair.key.range?.[0] ?? 0);
        problems.push({ line, column: col, field: String(pair.key.value), message: 'is not allowed as a key' });
      }
    },
  });
  return problems;
}

function byPlace(a: PlanFileProblem, b: PlanFileProblem): number {
  return (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0);
}

/** A file of this many bytes is too big to be a plan file: said before it is read (or parsed). */
export function sizeProblem(bytes: number): PlanFileProblem | null {
  return bytes > MAX_PLAN_FILE_BYTES
    ? { line: null, column: null, field: 'plan', message: `the file is ${Math.ceil(bytes / 1024)} KiB; a plan file may be at most ${MAX_PLAN_FILE_BYTES / 1024} KiB` }
    : null;
}

/**
 * A plan file's text → the plan, or every problem in it, each with its line and column. JSON is
 * read as YAML (it is YAML); `json` only holds it to JSON's words (an unquoted word is a problem).
 * With `catalogs`, the study and each template's variant, knobs and port are checked against what
 * is installed too, in the same list.
 */
export function parsePlanFile(text: string, format: 'yaml' | 'json' = 'yaml', catalogs?: PlanFileCatalogs): PlanFileParse {
  const tooBig = sizeProblem(utf8ByteLength(text));
  if (tooBig) return { ok: false, problems: [tooBig] };
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, prettyErrors: true, schema: format === 'json' ? 'json' : 'core', uniqueKeys: true });
  const syntax = [...document.errors, ...document.warnings].map(syntaxProblem);
  if (syntax.length > 0) {
    const shown = syntax.sort(byPlace).slice(0, MAX_SYNTAX_PROBLEMS);
    if (syntax.length > shown.length) shown.push({ line: null, column: null, field: 'YAML', message: `and ${syntax.length - shown.length} more problems` });
    return { ok: false, problems: shown };
  }
  const forbidden = forbiddenKeyProblems(document, lines);
  if (forbidden.length > 0) return { ok: false, problems: forbidden };

  let raw: unknown;
  try {
    raw = document.toJS({ maxAliasCount: MAX_ALIASES });
  } catch {
    return { ok: false, problems: [{ line: null, column: null, field: 'plan', message: `uses aliases (*name) more than ${MAX_ALIASES} times: write the values out` }] };
  }
  if (raw === null || raw === undefined) return { ok: false, problems: [{ line: 1, column: 1, field: 'plan', message: `the file is empty: a plan file starts with "version: ${PLAN_FILE_VERSION}"` }] };

  // A newer Benchlab's file is refused on its version alone: its other fields may be new, not wrong.
  const version = (raw as { version?: unknown }).version;
  if (typeof version === 'number' && version > PLAN_FILE_VERSION) {
    const at = locate(document, ['version'], lines);
    const message = `the file was written for a newer Benchlab (plan file version ${version}); this one reads version ${PLAN_FILE_VERSION}: update Benchlab`;
    return { ok: false, problems: [{ line: at?.line ?? null, column: at?.column ?? null, field: 'version', message }] };
  }

  const place = (path: Path, atKey: boolean) => locate(document, path, lines, atKey);
  const checked = checkPlanFile(raw, place);
  if (!catalogs) return checked.ok ? { ...checked, at: (path) => place(path, false) } : checked;
  const earlier = checked.ok ? [] : checked.problems;
  // What the schema already said about a field is not said twice (a knob value that is too long).
  const related = (a: string, b: string) => a === b || a.startsWith(`${b}.`) || a.startsWith(`${b}[`) || b.startsWith(`${a}.`) || b.startsWith(`${a}[`);
  const more = catalogIssues(raw, catalogs)
    .map((issue) => {
      const at = place(issue.path, issue.atKey);
      return { line: at?.line ?? null, column: at?.column ?? null, field: fieldName(issue.path), message: issue.message };
    })
    .filter((problem) => !earlier.some((other) => related(other.field, problem.field)));
  if (more.length > 0) return { ok: false, problems: [...earlier, ...more].sort(byPlace) };
  return checked.ok ? { ...checked, at: (path) => place(path, false) } : checked;
}

/**
 * A value (parsed from a file, or built by the wizard) checked as a plan file: the plan, or every
 * problem; `place` says where a field is written, when there is a text to point into.
 */
export function checkPlanFile(value: unknown, place: (path: Path, atKey: boolean) => Place = () => null): PlanFileParse {
  const parsed = PlanFile.safeParse(value, { error: planFileMessage });
  if (parsed.success) return { ok: true, plan: parsed.data };
  const problem = (path: Path, message: string, atKey = false): PlanFileProblem => {
    const at = place(path, atKey);
    return { line: at?.line ?? null, column: at?.column ?? null, field: fieldName(path), message };
  };
  const problems: PlanFileProblem[] = [];
  for (const issue of parsed.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) problems.push(problem([...issue.path, key], 'is not a field of a plan file (see docs/plan-files.md)', true));
    } else problems.push(problem(issue.path, issue.message));
  }
  return { ok: false, problems: problems.sort(byPlace) };
}

/** One line per problem: `plan.yaml:12:5 templates[1].variant: is required`. */
export function describeProblems(fileName: string, problems: readonly PlanFileProblem[]): string {
  return problems
    .map((problem) => `${fileName}${problem.line === null ? '' : `:${problem.line}:${problem.column ?? 1}`} ${problem.field}: ${problem.message}`)
    .join('\n');
}
