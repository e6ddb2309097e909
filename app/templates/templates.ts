// Server template manifests (server-templates/<id>/template.json): the schema and its validation,
// the endpoint contract's names and paths, knob resolution against a manifest's bounds, and the
// rendering of the start command's placeholders into one shell-quoted command line. Pure: the
// deployer in main/ reads the files and runs what this returns.

import { z } from 'zod';
import { shellQuote } from '../common/shell-quote.ts';
import { describeZodError } from '../common/zod-issues.ts';
import { messageOf } from '../common/errors.ts';

/** The endpoints of server-templates/CONTRACT.md, by name. */
export const ENDPOINTS = ['hello', 'file', 'json', 'fib', 'concat', 'sleep', 'health', 'db', 'queries', 'updates', 'fortunes', 'docs'] as const;
export type Endpoint = (typeof ENDPOINTS)[number];

/** The endpoints served from the private PostgreSQL: a template that lists one declares `database`. */
export const DATABASE_ENDPOINTS = ['db', 'queries', 'updates', 'fortunes', 'docs'] as const satisfies readonly Endpoint[];

/** The request each endpoint answers, with the contract's default parameters. */
export const ENDPOINT_REQUESTS: Record<Endpoint, string> = {
  hello: '/hello',
  file: '/file',
  json: '/json',
  fib: '/fib?n=30',
  concat: '/concat?n=10000',
  sleep: '/sleep?ms=500',
  health: '/health',
  db: '/db',
  queries: '/queries?n=20',
  updates: '/updates?n=20',
  fortunes: '/fortunes',
  docs: '/docs',
};

/** Runtimes a template may require on the server host; each has a probe and placeholders in main/. */
export const RUNTIMES = ['node', 'apache2', 'java'] as const;
export type RuntimeName = (typeof RUNTIMES)[number];

/** Signals a template may ask to be stopped with (the supervisor sends it, then KILL after the grace). */
export const STOP_SIGNALS = ['TERM', 'INT', 'QUIT', 'HUP', 'WINCH', 'USR1', 'USR2'] as const;

export const DEFAULT_PORT = 8080;

export const Port = z
  .number({ error: 'must be a number' })
  .int('must be a whole number')
  .min(1, 'must be between 1 and 65535')
  .max(65535, 'must be between 1 and 65535');

const Id = z
  .string()
  .regex(/^[a-z][a-z0-9_-]{0,39}$/, 'must start with a lowercase letter and hold only a-z, 0-9, "_" and "-" (at most 40)');
/** Knob and variant ids may be camelCase: they appear in commands as {knob.cacheFile}. */
const KnobId = z.string().regex(/^[a-z][A-Za-z0-9_-]{0,39}$/, 'must start with a lowercase letter and hold only letters, digits, "_" and "-" (at most 40)');
const Text = (max: number) => z.string().trim().min(1, 'is required').max(max, `must be at most ${max} characters`);

const RELATIVE_PATH = /^(?!\/)(?!.*(?:^|\/)\.\.?(?:\/|$))[A-Za-z0-9._/-]+$/;
const RELATIVE_PATH_RULE = 'must be a relative path of letters, digits, ".", "_", "-" and "/" without ".." or "."';

/** A path inside a template's folder (or run dir): relative, no "..", no odd characters. */
const RelativePath = z.string().max(200, 'is too long').regex(RELATIVE_PATH, RELATIVE_PATH_RULE);

/** `../<folder>`: a whole folder beside the template's, shared by several templates (server-templates/jvm-common). */
const SHARED_FOLDER = /^\.\.\/([a-z][a-z0-9_-]{0,39})$/;

/** A build input: a path inside the template's folder, or a shared folder beside it. */
const BuildInput = z
  .string()
  .max(200, 'is too long')
  .refine((path) => RELATIVE_PATH.test(path) || SHARED_FOLDER.test(path), `${RELATIVE_PATH_RULE}, or "../<folder>" for a folder beside it that templates share`);

const Requirement = z.discriminatedUnion(
  'runtime',
  [
    /**
     * Node: at least `minVersion` (the host's own, else Benchlab's portable Node), or exactly
     * `version`, which Benchlab always brings itself from npm's node-linux-<arch> package whatever
     * the host has (a template that redoes a benchmark on the Node of its day).
     */
    z
      .object({
        runtime: z.literal('node'),
        minVersion: z.number().int().min(0).max(1000).optional(),
        version: z.string().regex(/^\d{1,3}\.\d{1,3}\.\d{1,3}$/, 'must be a release such as 0.8.28').optional(),
      })
      .strict()
      .refine((node) => (node.minVersion === undefined) !== (node.version === undefined), 'names either minVersion or version, not both'),
    z.object({ runtime: z.literal('apache2') }).strict(),
    /** A Java runtime of at least this feature version (8, 11, 17, 21…), found on PATH, in JAVA_HOME or the usual JVM folders. */
    z.object({ runtime: z.literal('java'), minVersion: z.number().int().min(8).max(1000) }).strict(),
  ],
  { error: `runtime must be one of ${RUNTIMES.join(', ')}` },
);
export type Requirement = z.infer<typeof Requirement>;

const KnobBase = { id: KnobId, name: Text(60), description: Text(300) };

const IntegerKnob = z
  .object({ ...KnobBase, type: z.literal('integer'), min: z.number().int(), max: z.number().int(), default: z.number().int() })
  .strict()
  .refine((knob) => knob.min <= knob.max, { message: 'min must not be above max', path: ['min'] })
  .refine((knob) => knob.default >= knob.min && knob.default <= knob.max, { message: 'must be between min and max', path: ['default'] });
const BooleanKnob = z.object({ ...KnobBase, type: z.literal('boolean'), default: z.boolean() }).strict();
const ChoiceKnob = z
  .object({ ...KnobBase, type: z.literal('choice'), values: z.array(z.string().regex(/^[A-Za-z0-9._-]{1,40}$/)).min(1), default: z.string() })
  .strict()
  .refine((knob) => knob.values.includes(knob.default), { message: 'must be one of values', path: ['default'] });

const Knob = z.union([IntegerKnob, BooleanKnob, ChoiceKnob]);
export type Knob = z.infer<typeof Knob>;
export type KnobValue = number | boolean | string;

const Variant = z
  .object({
    id: Id,
    name: Text(60),
    description: Text(300),
    /** Runtimes this variant needs beyond the template's own (e.g. Java >= 21 for virtual threads); checked at deploy. */
    requires: z.array(Requirement).optional(),
  })
  .strict();
export type Variant = z.infer<typeof Variant>;

const BuildStep = z
  .object({
    name: Text(80),
    /** argv, run in the template's folder on the user's machine (no shell). */
    command: z.array(z.string().min(1)).min(1),
    timeoutSeconds: z.number().int().min(1).max(3600).default(600),
    /** Files the step produces (relative to the template's folder); they are uploaded too. */
    artifacts: z.array(RelativePath).default([]),
    /**
     * Files and folders the step reads (relative to the template's folder; "../<folder>" names a
     * folder beside it that templates share, which the build gets beside its copy). When given, the
     * step is skipped while their content hash, the command and the artifacts are unchanged since its last run.
     */
    inputs: z.array(BuildInput).optional(),
  })
  .strict();

export const PLACEHOLDER = /\{([a-z][A-Za-z0-9_.-]*)\}/g;

/** Placeholders every start command may use; `knob.<id>` and runtime ones are checked per manifest. */
const FIXED_PLACEHOLDERS = ['port', 'dir', 'run', 'variant'] as const;
/** What each runtime puts at the command's disposal. */
export const RUNTIME_PLACEHOLDERS: Record<RuntimeName, readonly string[]> = {
  node: ['node'],
  apache2: ['apache2', 'apache2.modules'],
  java: ['java'],
};

/**
 * A database the template's servers use when its knob asks for one: Benchlab starts a private
 * instance on the server host before the server and hands its URL over as {db.url} and
 * BENCHLAB_DB_URL. PostgreSQL only: a boolean knob (on starts it). With `mongodb` the template
 * also speaks MongoDB's protocol: its knob is a choice of DATABASE_CHOICES.
 */
const DatabaseNeed = z
  .object({ kind: z.literal('postgresql', { error: 'must be "postgresql"' }), minVersion: z.number().int().min(9).max(1000), knob: KnobId, mongodb: z.boolean().optional() })
  .strict();
export type DatabaseNeed = z.infer<typeof DatabaseNeed>;

/** The values of a database knob that offers MongoDB: none, the private PostgreSQL, or a private MongoDB-protocol database. */
export const DATABASE_CHOICES = ['none', 'postgres', 'mongo'] as const;
/** The database a deploy starts. */
export type DatabaseKind = 'postgresql' | 'mongodb';

/** The value of {db.url} and BENCHLAB_DB_URL when the database knob is off. */
export const NO_DATABASE_URL = 'none';
/** The environment variable a template reads the database's URL from. */
export const DATABASE_URL_ENV = 'BENCHLAB_DB_URL';

export const ManifestShape = z
  .object({
    schema: z.literal(1, { error: 'must be 1' }),
    id: Id,
    name: Text(60),
    description: Text(600),
    requires: z.array(Requirement),
    endpoints: z.array(z.enum(ENDPOINTS, { error: `must be one of ${ENDPOINTS.join(', ')}` })).min(1),
    variants: z.array(Variant).min(1, 'needs at least one variant'),
    defaultVariant: Id,
    knobs: z.array(Knob).default([]),
    build: z.array(BuildStep).default([]),
    /** Files of the template's folder to upload, relative to it. */
    files: z.array(RelativePath).min(1, 'needs at least one file'),
    /** Where the 43 KB payload goes in the uploaded folder, for templates that serve /file. */
    payload: RelativePath.nullable().default(null),
    /** argv with placeholders, e.g. ["{node}", "{dir}/server.js", "--port", "{port}"]. */
    start: z.array(z.string().min(1).max(500)).min(1),
    readiness: z
      .object({ path: z.string().regex(/^\/[A-Za-z0-9._~/?=&%-]*$/, 'must be a path such as /health'), timeoutSeconds: z.number().int().min(1).max(300) })
      .strict(),
    stop: z.object({ signal: z.enum(STOP_SIGNALS), graceSeconds: z.number().int().min(1).max(120) }).strict(),
    /** Log files the server writes, relative to the run dir; streamed to the log terminal. */
    logs: z.array(RelativePath).default([]),
    database: DatabaseNeed.nullable().default(null),
    /**
     * A build artifact naming the packages the server was built with and their versions (a JSON
     * object, e.g. {"express": "5.3.0", "pg": "8.23.1"}); recorded with the deployment and its sessions.
     */
    components: RelativePath.nullable().default(null),
  })
  .strict();

export type Manifest = z.infer<typeof ManifestShape>;

function duplicates(values: string[]): string[] {
  return [...new Set(values.filter((value, index) => values.indexOf(value) !== index))];
}

/** Cross-field rules zod's shape cannot say. */
function manifestProblems(manifest: Manifest): string[] {
  const problems: string[] = [];
  for (const [what, ids] of [
    ['variant', manifest.variants.map((variant) => variant.id)],
    ['knob', manifest.knobs.map((knob) => knob.id)],
    ['endpoint', manifest.endpoints],
    ['runtime', manifest.requires.map((requirement) => requirement.runtime)],
  ] as const) {
    for (const id of duplicates([...ids])) problems.push(`${what} "${id}" is listed twice`);
  }
  if (!manifest.variants.some((variant) => variant.id === manifest.defaultVariant)) {
    problems.push(`defaultVariant: "${manifest.defaultVariant}" is not one of the variants (${manifest.variants.map((variant) => variant.id).join(', ')})`);
  }
  if (!manifest.endpoints.includes('health')) problems.push('endpoints: must include "health" (readiness and the contract need it)');
  if (manifest.endpoints.includes('file') && manifest.payload === null) problems.push('payload: is required when the template serves "file"');
  if (manifest.components !== null && !manifest.build.some((step) => step.artifacts.includes(manifest.components!))) {
    problems.push(`components: "${manifest.components}" is not an artifact of a build step`);
  }
  if (sharedFolders(manifest).includes(manifest.id)) problems.push(`build: an input "../${manifest.id}" names the template's own folder`);
  problems.push(...databaseProblems(manifest));
  const allowed = new Set<string>([
    ...FIXED_PLACEHOLDERS,
    ...(manifest.database ? ['db.url'] : []),
    ...manifest.knobs.map((knob) => `knob.${knob.id}`),
    ...manifest.requires.flatMap((requirement) => RUNTIME_PLACEHOLDERS[requirement.runtime]),
    ...manifest.variants.flatMap((variant) => (variant.requires ?? []).flatMap((requirement) => RUNTIME_PLACEHOLDERS[requirement.runtime])),
  ]);
  for (const argument of manifest.start) {
    for (const [, name] of argument.matchAll(PLACEHOLDER)) {
      if (!allowed.has(name!)) problems.push(`start: unknown placeholder {${name}} (known: ${[...allowed].map((known) => `{${known}}`).join(', ')})`);
    }
  }
  return problems;
}

/** A database endpoint needs the database; the database names a knob that turns it on (boolean), or chooses it (with mongodb). */
function databaseProblems(manifest: Manifest): string[] {
  const served = manifest.endpoints.filter((endpoint) => (DATABASE_ENDPOINTS as readonly string[]).includes(endpoint));
  if (!manifest.database) return served.length > 0 ? [`database: is required when the template serves ${served.map((endpoint) => `"${endpoint}"`).join(', ')}`] : [];
  const knob = manifest.knobs.find((candidate) => candidate.id === manifest.database!.knob);
  if (!knob) return [`database.knob: "${manifest.database.knob}" is not one of the knobs`];
  if (manifest.database.mongodb) {
    const values = knob.type === 'choice' ? [...knob.values].sort().join(',') : '';
    if (values !== [...DATABASE_CHOICES].sort().join(',') || knob.default !== 'none') {
      return [`database.knob: "${knob.id}" must be a choice of ${DATABASE_CHOICES.join(', ')} with the default none (database.mongodb is on)`];
    }
    return [];
  }
  if (knob.type !== 'boolean') return [`database.knob: "${knob.id}" must be a boolean knob (on: Benchlab starts the database)`];
  return [];
}

/** The database the deploy starts: the template declares one and its knob asks for it (on, postgres or mongo); null for none. */
export function databaseKindOf(manifest: Pick<Manifest, 'database'>, settings: Pick<DeploySettings, 'knobs'>): DatabaseKind | null {
  if (!manifest.database) return null;
  const value = settings.knobs[manifest.database.knob];
  if (value === true || value === 'postgres') return 'postgresql';
  if (value === 'mongo' && manifest.database.mongodb) return 'mongodb';
  return null;
}

/** The deploy starts the template's database: it declares one and its knob asks for it. */
export function wantsDatabase(manifest: Pick<Manifest, 'database'>, settings: Pick<DeploySettings, 'knobs'>): boolean {
  return databaseKindOf(manifest, settings) !== null;
}

/** A database knob that became a choice still takes the boolean plan files and drafts wrote before: on is postgres, off none. */
function knobValueOf(manifest: Manifest, knob: Knob, value: KnobValue): KnobValue {
  if (manifest.database?.mongodb && knob.id === manifest.database.knob && typeof value === 'boolean') return value ? 'postgres' : 'none';
  return value;
}

/** The shared folders beside the template's own that its build reads (inputs "../<folder>"), each once. */
export function sharedFolders(manifest: Pick<Manifest, 'build'>): string[] {
  const folders = manifest.build.flatMap((step) => (step.inputs ?? []).map((input) => SHARED_FOLDER.exec(input)?.[1]).filter((folder) => folder !== undefined));
  return [...new Set(folders)];
}

/**
 * What deploying `variantId` needs: the template's requirements with the variant's own on top; where
 * both name a runtime with a minimum version, the higher minimum holds (an exact Node version over any minimum).
 */
export function requirementsFor(manifest: Pick<Manifest, 'requires' | 'variants'>, variantId: string): Requirement[] {
  const merged = [...manifest.requires];
  for (const extra of manifest.variants.find((variant) => variant.id === variantId)?.requires ?? []) {
    const index = merged.findIndex((requirement) => requirement.runtime === extra.runtime);
    if (index < 0) merged.push(extra);
    else if (minimumOf(extra) > minimumOf(merged[index]!)) merged[index] = extra;
  }
  return merged;
}

function minimumOf(requirement: Requirement): number {
  if (requirement.runtime === 'node' && requirement.version !== undefined) return Number.POSITIVE_INFINITY;
  return 'minVersion' in requirement ? (requirement.minVersion ?? 0) : 0;
}

export type ManifestResult = { ok: true; manifest: Manifest } | { ok: false; error: string };

/** Reads a template.json text; `folder` is the folder it came from (the id must match it). */
export function parseManifest(text: string, folder: string): ManifestResult {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `template.json is not valid JSON: ${messageOf(error)}` };
  }
  const parsed = ManifestShape.safeParse(json);
  if (!parsed.success) return { ok: false, error: `template.json: ${describeZodError(parsed.error)}` };
  const problems = manifestProblems(parsed.data);
  if (parsed.data.id !== folder) problems.unshift(`id: "${parsed.data.id}" must match its folder name "${folder}"`);
  if (problems.length > 0) return { ok: false, error: `template.json: ${problems.slice(0, 3).join('; ')}` };
  return { ok: true, manifest: parsed.data };
}

// ---------------------------------------------------------------------------------------------
// Deploy settings: variant, knobs and port, checked against the manifest

export interface DeployChoice {
  variant?: string | undefined;
  knobs?: Record<string, KnobValue> | undefined;
  port?: number | undefined;
}

export interface DeploySettings {
  variant: string;
  knobs: Record<string, KnobValue>;
  port: number;
}

function knobProblem(knob: Knob, value: KnobValue): string | null {
  const label = `knob "${knob.id}" (${knob.name})`;
  switch (knob.type) {
    case 'integer':
      if (typeof value !== 'number' || !Number.isInteger(value)) return `${label}: must be a whole number (got ${JSON.stringify(value)})`;
      if (value < knob.min || value > knob.max) return `${label}: must be between ${knob.min} and ${knob.max} (got ${value})`;
      return null;
    case 'boolean':
      return typeof value === 'boolean' ? null : `${label}: must be true or false (got ${JSON.stringify(value)})`;
    case 'choice':
      return typeof value === 'string' && knob.values.includes(value) ? null : `${label}: must be one of ${knob.values.join(', ')} (got ${JSON.stringify(value)})`;
  }
}

/** One problem with a deploy choice, and the part of the choice it is about. */
export interface DeployChoiceProblem {
  /** `['variant']`, `['port']`, or `['knobs', id]` (with `unknownKnob`, the key itself is wrong). */
  path: ['variant'] | ['port'] | ['knobs', string];
  unknownKnob?: boolean;
  message: string;
}

/** The settings to deploy with (defaults filled in), or every problem with the user's choice, each with what it is about. */
export function checkDeployChoice(manifest: Manifest, choice: DeployChoice): { ok: true; settings: DeploySettings } | { ok: false; problems: DeployChoiceProblem[] } {
  const problems: DeployChoiceProblem[] = [];
  const variant = choice.variant ?? manifest.defaultVariant;
  if (!manifest.variants.some((candidate) => candidate.id === variant)) {
    problems.push({ path: ['variant'], message: `variant "${variant}" is not one of ${manifest.name}'s variants (${manifest.variants.map((candidate) => candidate.id).join(', ')})` });
  }
  const knobs: Record<string, KnobValue> = {};
  for (const knob of manifest.knobs) {
    const value = knobValueOf(manifest, knob, Object.hasOwn(choice.knobs ?? {}, knob.id) ? choice.knobs![knob.id]! : knob.default);
    const problem = knobProblem(knob, value);
    if (problem) problems.push({ path: ['knobs', knob.id], message: problem });
    else knobs[knob.id] = value;
  }
  for (const id of Object.keys(choice.knobs ?? {})) {
    if (!manifest.knobs.some((knob) => knob.id === id)) {
      problems.push({ path: ['knobs', id], unknownKnob: true, message: `unknown knob "${id}" (${manifest.name} has ${manifest.knobs.map((knob) => knob.id).join(', ') || 'none'})` });
    }
  }
  const port = choice.port ?? DEFAULT_PORT;
  const portCheck = Port.safeParse(port);
  if (!portCheck.success) problems.push({ path: ['port'], message: `port: ${portCheck.error.issues[0]?.message ?? 'is invalid'} (got ${port})` });
  return problems.length > 0 ? { ok: false, problems } : { ok: true, settings: { variant, knobs, port } };
}

/** The settings to deploy with (defaults filled in), or every problem with the user's choice. */
export function resolveDeploySettings(manifest: Manifest, choice: DeployChoice): { ok: true; settings: DeploySettings } | { ok: false; errors: string[] } {
  const checked = checkDeployChoice(manifest, choice);
  return checked.ok ? checked : { ok: false, errors: checked.problems.map((problem) => problem.message) };
}

// ---------------------------------------------------------------------------------------------
// Start command

export interface StartValues {
  settings: DeploySettings;
  /** The uploaded template folder on the host. */
  dir: string;
  /** The run dir on the host (pid files, logs). */
  run: string;
  /** Values of the runtime placeholders, e.g. { node: '/usr/bin/node' }. */
  runtimes: Record<string, string>;
  /** The private database's URL when the deploy started one ({db.url}); `none` otherwise. */
  databaseUrl?: string | null;
}

/** The start command's argv with every placeholder replaced; throws on a placeholder without a value. */
export function renderStartArgv(manifest: Manifest, values: StartValues): string[] {
  const lookup = (name: string): string => {
    if (name === 'port') return String(values.settings.port);
    if (name === 'dir') return values.dir;
    if (name === 'run') return values.run;
    if (name === 'variant') return values.settings.variant;
    if (name === 'db.url') return values.databaseUrl ?? NO_DATABASE_URL;
    if (name.startsWith('knob.')) {
      const value = values.settings.knobs[name.slice('knob.'.length)];
      if (value !== undefined) return String(value);
    }
    const runtime = values.runtimes[name];
    if (runtime !== undefined) return runtime;
    throw new Error(`the start command's placeholder {${name}} has no value`);
  };
  return manifest.start.map((argument) => argument.replace(PLACEHOLDER, (_match, name: string) => lookup(name)));
}

/** The environment the server starts with: BENCHLAB_DB_URL for a template that declares a database. */
export function serverEnvironment(manifest: Pick<Manifest, 'database'>, databaseUrl: string | null): Record<string, string> {
  return manifest.database ? { [DATABASE_URL_ENV]: databaseUrl ?? NO_DATABASE_URL } : {};
}

/** `postgresql://USER:PASS@127.0.0.1:PORT/NAME`, the form {db.url} takes. */
export function postgresUrl(database: { user: string; password: string; port: number; name: string }): string {
  return `postgresql://${encodeURIComponent(database.user)}:${encodeURIComponent(database.password)}@127.0.0.1:${database.port}/${encodeURIComponent(database.name)}`;
}

/**
 * One sh command line from an argv: every argument quoted, so no value can inject a command; an
 * environment goes first through env(1), so the supervisor still runs a plain argv.
 */
export function toCommandLine(argv: readonly string[], environment: Record<string, string> = {}): string {
  const assignments = Object.entries(environment).map(([name, value]) => `${name}=${value}`);
  return (assignments.length > 0 ? ['env', ...assignments, ...argv] : argv).map(shellQuote).join(' ');
}
