// The side-by-side comparison of 2..N sessions (or chosen runs of them), as the UI and the PDF show
// it: per sweep step a table in the seeds' columns with the best value of each column marked, the
// overlaid timelines (requests/s and p99 per second), latency distributions from merged histograms,
// the host diff with its warnings (the server's private database too), runs that were not steady marked, and repeated runs of one
// configuration as a median with a 95 % bootstrap interval and, against the first configuration,
// the 95 % interval of the ratio (a verdict only from 5 runs a side: compare-stats.ts).
// Pure: main/ reads the store and hands the rows in.

import { z } from 'zod';
import { Bottleneck } from '../runs/bottleneck.ts';
import { describePhasesBrief, modelOf } from '../runs/latency-includes.ts';
import { engineLabel, recordedEngineOf } from '../runs/engine-choice.ts';
import { bootstrapMedian, ratioVerdict, seededRandom, seedFrom } from './compare-stats.ts';
import type { LatencyHistogram } from '../common/hdr.ts';
import { describeProfile, LoadProfile, StepLoad, targetRate } from '../runs/load-profile.ts';
import { diffHosts, type HostDiff, type SessionSystems } from './host-diff.ts';
import { diffDatabases } from './database-diff.ts';
import { diffRuntimes } from './runtime-diff.ts';
import { configurationKey, distinctKnobs, isCompleted, setupsOf, templateLabel } from './configuration-key.ts';

export { configurationKey, distinctKnobs, isCompleted, knobsText } from './configuration-key.ts';
import { recordedDatabaseLine, recordedDatabaseOf } from '../templates/recorded-database.ts';
import { calibrationLineOf } from '../runs/calibration-record.ts';
import type { NoiseFinding } from '../hosts/host-facts.ts';
import { ServerMemory, ServerRuntime, Steadiness, type RunSummary } from '../runs/run-summary-schema.ts';
import { MEMORY_MISSING } from '../runs/server-memory.ts';
import { describeServerRuntime } from '../runs/server-runtime.ts';
import { importProvenanceOf, type ImportFigure } from './importers/imported-result.ts';
import { importedFromText } from './importers/imported-session.ts';
import { sessionRequestOf } from './comparison-endpoints.ts';

export const MAX_COMPARED = 20;

const Nullable = z.number().nullable();

export const ComparedSession = z.object({
  id: z.number(),
  name: z.string(),
  status: z.string(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  notes: z.string(),
  tags: z.array(z.string()),
  clientHost: z.string().nullable(),
  serverHost: z.string().nullable(),
  /** Template and variant of each compared run, e.g. "node (cluster)". */
  templates: z.array(z.string()),
  /** The load profile in words (model, steps, request). */
  configuration: z.string(),
  /** Index of its configuration group in `repeats.groups`. */
  group: z.number(),
  /** For a session imported from another tool's file: where from and at what resolution; absent for Benchlab's own. */
  imported: z.string().nullable().optional(),
  /** Each distinct server set-up its runs used: template, variant and the knobs in words ("threads 4, gzip on"). */
  setups: z.array(z.object({ template: z.string(), variant: z.string(), knobs: z.string() })).optional(),
  /** Which load engine ran, when the session recorded it (e.g. "native", "node"); null or absent: not recorded. */
  engine: z.string().nullable().optional(),
  /** The private database its deployment ran with, in one line (version, port, settings); null or absent: none recorded. */
  database: z.string().nullable().optional(),
  /** Steps chosen as multiples of a capacity measured first, in words (calibration.ts); null or absent: fixed steps. */
  calibration: z.string().nullable().optional(),
  /** The knobs in which its set-up differs from another compared session's of the same template and variant ("container jetty"); null or absent: none. */
  distinctKnobs: z.string().nullable().optional(),
  /** The request it sent: the plan's name for it (null: unnamed), method and path; null or absent: not recorded (comparison-endpoints.ts). */
  request: z.object({ name: z.string().nullable(), method: z.string(), path: z.string() }).nullable().optional(),
});
export type ComparedSession = z.infer<typeof ComparedSession>;

export const COLUMN_BETTER = ['higher', 'lower', 'none'] as const;

export const CompareColumn = z.object({
  key: z.string(),
  label: z.string(),
  unit: z.enum(['rps', 'us', 'share', 'count', 'bytes']),
  better: z.enum(COLUMN_BETTER),
});
export type CompareColumn = z.infer<typeof CompareColumn>;

export const CompareRow = z.object({
  session: z.number(),
  runId: z.number(),
  values: z.array(Nullable),
  best: z.array(z.boolean()),
  /** The run's steady-state verdict (null: too short to say, or recorded before it was judged). */
  steadiness: Steadiness.nullable(),
  /** Which side limited the run, judged by app/runs/bottleneck.ts from its stored seconds; absent or null: nothing to say. */
  bottleneck: Bottleneck.nullable().optional(),
  /** Column key → why the value is "—": an imported session's file did not carry it. */
  missing: z.record(z.string(), z.string()).optional(),
  /** How the run ended (completed, failed, stopped…): only a completed run's values can be best. Absent: completed. */
  status: z.string().optional(),
  /** The run's connect, waiting, processing and total medians and what its latency includes (connect or not), in words. */
  latency: z.string().optional(),
  /** The server process's memory (RSS) over the run: lowest, highest, last reading; null or absent: not read. */
  serverMemory: ServerMemory.nullable().optional(),
  /** Why the server ran as it did, in words (app/runs/server-runtime.ts), and its figures (a JVM's GC…); absent: not read. */
  serverRuntime: z.string().optional(),
  serverRuntimeFigures: ServerRuntime.optional(),
});
export type CompareRow = z.infer<typeof CompareRow>;

/** Where a sweep step sits on the sweep's axis: its connections (closed model) or target requests/s (open). */
export const StepPosition = z.object({ axis: z.enum(['connections', 'rate']), value: z.number() });
export type StepPosition = z.infer<typeof StepPosition>;

export const CompareStep = z.object({ label: z.string(), rows: z.array(CompareRow), position: StepPosition.nullable().optional() });
export type CompareStep = z.infer<typeof CompareStep>;

export const Timeline = z.object({
  session: z.number(),
  /** Seconds since the session started. Parallel arrays: compact for 3,600 points a session. */
  t: z.array(z.number()),
  rps: z.array(z.number()),
  p99Us: z.array(Nullable),
  /** Where each run (sweep step) began, in the same seconds, with its label. */
  steps: z.array(z.object({ t: z.number(), label: z.string() })),
});
export type Timeline = z.infer<typeof Timeline>;

export const Distribution = z.object({
  session: z.number(),
  step: z.string(),
  points: z.array(z.object({ percentile: z.number(), us: z.number() })),
});
export type Distribution = z.infer<typeof Distribution>;

const Interval = z.object({ n: z.number(), median: z.number(), low: z.number(), high: z.number() });
/** B/A against the first configuration: the ratio, its 95 % interval, and the verdict in words. */
const Verdict = z
  .object({
    nA: z.number(),
    nB: z.number(),
    ratio: Nullable,
    low: Nullable,
    high: Nullable,
    kind: z.enum(['higher', 'lower', 'no-difference', 'too-few', 'no-ratio']),
    text: z.string(),
  })
  .nullable();

export const RepeatGroup = z.object({
  label: z.string(),
  sessions: z.array(z.number()),
  steps: z.array(
    z.object({
      label: z.string(),
      rps: Interval,
      p99Us: Interval.nullable(),
      /** Against the first group (the baseline); null for the baseline itself. */
      rpsVsBaseline: Verdict,
      p99VsBaseline: Verdict,
    }),
  ),
});
export type RepeatGroup = z.infer<typeof RepeatGroup>;

export const HostDiffSchema = z.object({
  rows: z.array(z.object({ role: z.enum(['client', 'server']), clientIndex: z.number().int().optional(), label: z.string(), values: z.array(z.string().nullable()), differs: z.boolean() })),
  warnings: z.array(z.string()),
});

export const Comparison = z.object({
  title: z.string(),
  sessions: z.array(ComparedSession),
  columns: z.array(CompareColumn),
  steps: z.array(CompareStep),
  repeats: z.array(RepeatGroup),
  timelines: z.array(Timeline),
  distributions: z.array(Distribution),
  hosts: HostDiffSchema,
  warnings: z.array(z.string()),
});
export type Comparison = z.infer<typeof Comparison>;

// ---------------------------------------------------------------------------------------------
// Inputs, as main/ reads them from the store

export interface ComparedRunInput {
  runId: number;
  stepLabel: string;
  templateId: string;
  variant: string;
  status: string;
  summary: RunSummary | null;
  /** The run's merged HDR histogram, for its latency distribution. */
  histogram: LatencyHistogram | null;
  startedAt: string | null;
  /** Per second of this run: requests, the interval's length and its p99. */
  seconds: ReadonlyArray<{ second: number; requests: number; durationMs: number; p99Us: number | null }>;
  /** The run's bottleneck verdict (judgeBottleneck over its stored seconds). */
  bottleneck?: Bottleneck | null;
  /** The knobs its server was deployed with. */
  knobs?: Record<string, unknown>;
  /** The step's load as stored with the run (app/runs/load-profile.ts StepLoad), for the sweep charts' axis. */
  load?: unknown;
  /** Why the run has no server memory (app/runs/server-memory.ts MEMORY_MISSING), when it has none. */
  serverMemoryMissing?: string;
}

export interface ComparedSessionInput {
  id: number;
  name: string;
  status: string;
  createdAt: string;
  startedAt: string | null;
  notes: string;
  tags: string[];
  config: Record<string, unknown>;
  clientHost: string | null;
  serverHost: string | null;
  /** The session's own snapshot of its hosts at start (null where it recorded none). */
  systems: SessionSystems;
  /** What the pre-flight found noisy on its hosts at start. */
  noise?: NoiseFinding[];
  runs: ComparedRunInput[];
}

// ---------------------------------------------------------------------------------------------

const FIXED_COLUMNS: ReadonlyArray<CompareColumn & { read: (summary: RunSummary) => number | null }> = [
  { key: 'rps', label: 'Requests/s', unit: 'rps', better: 'higher', read: (s) => s.requestsPerSecond },
  { key: 'mean', label: 'Mean', unit: 'us', better: 'lower', read: (s) => s.meanUs },
  { key: 'stddev', label: 'Std dev', unit: 'us', better: 'lower', read: (s) => s.stdDevUs },
  { key: 'p50', label: 'p50', unit: 'us', better: 'lower', read: (s) => s.p50Us },
  { key: 'p75', label: 'p75', unit: 'us', better: 'lower', read: (s) => s.p75Us },
  { key: 'p90', label: 'p90', unit: 'us', better: 'lower', read: (s) => s.p90Us },
  { key: 'p99', label: 'p99', unit: 'us', better: 'lower', read: (s) => s.p99Us },
  { key: 'max', label: 'Max', unit: 'us', better: 'lower', read: (s) => s.maxUs },
];

/** Where the requests went: failures (non-2xx, errors, timeouts) and the scheduled requests never sent. */
const BOOK_COLUMNS: ReadonlyArray<CompareColumn & { read: (summary: RunSummary) => number | null }> = [
  { key: 'failed', label: 'Failed', unit: 'count', better: 'lower', read: (s) => s.failed },
  { key: 'timeouts', label: 'Timeouts', unit: 'count', better: 'lower', read: (s) => s.errors.timeout ?? 0 },
  { key: 'notSent', label: 'Not sent', unit: 'count', better: 'lower', read: (s) => (s.books ? s.books.notSent : null) },
];

/** Requests still unresolved when a run ended (stopped or cut off): a column only when some run has any. */
const IN_FLIGHT_COLUMN: CompareColumn & { read: (summary: RunSummary) => number | null } = {
  key: 'inFlight',
  label: 'In flight',
  unit: 'count',
  better: 'none',
  read: (s) => (s.books ? s.books.inFlight : null),
};

/**
 * The server process's peak memory (RSS) over the run: a column only when some run has a reading
 * (its lowest and last reading are the row's `serverMemory`). Less is no "better" here.
 */
const MEMORY_COLUMNS: ReadonlyArray<CompareColumn & { read: (summary: RunSummary) => number | null }> = [
  { key: 'rssMax', label: 'Server RSS', unit: 'bytes', better: 'none', read: (s) => s.serverMemory?.maxBytes ?? null },
];

/** Latency band columns, in the order of the first summary that has them. */
function bandColumns(summaries: ReadonlyArray<RunSummary | null>): CompareColumn[] {
  const labels: string[] = [];
  for (const summary of summaries) for (const band of summary?.bands ?? []) if (!labels.includes(band.label)) labels.push(band.label);
  // The fastest band should hold most responses, the slowest as few as possible; bands between say nothing alone.
  return labels.map((label, i) => ({
    key: `band:${label}`,
    label,
    unit: 'share' as const,
    better: labels.length < 2 ? ('none' as const) : i === 0 ? ('higher' as const) : i === labels.length - 1 ? ('lower' as const) : ('none' as const),
  }));
}

/** The figure of an import's `absent` list a column shows (all band columns are `bands`). */
function figureOf(column: CompareColumn): ImportFigure {
  return (column.key.startsWith('band:') ? 'bands' : column.key) as ImportFigure;
}

function readColumn(column: CompareColumn, summary: RunSummary | null, absent: Partial<Record<ImportFigure, string>> = {}): number | null {
  if (!summary || absent[figureOf(column)] !== undefined) return null;
  const books = [...BOOK_COLUMNS, IN_FLIGHT_COLUMN, ...MEMORY_COLUMNS].find((fixed) => fixed.key === column.key);
  if (books) return books.read(summary);
  if (column.key.startsWith('band:')) return summary.bands.find((band) => `band:${band.label}` === column.key)?.share ?? null;
  return FIXED_COLUMNS.find((fixed) => fixed.key === column.key)?.read(summary) ?? null;
}

/**
 * Marks the best value(s) of each column among rows; ties are all best; a lone row marks nothing.
 * `eligible[r]` false leaves row r out (a failed or stopped run: its "0 failed" is no result).
 */
export function markBest(columns: readonly CompareColumn[], values: ReadonlyArray<ReadonlyArray<number | null>>, eligible?: readonly boolean[]): boolean[][] {
  const best = values.map((row) => row.map(() => false));
  columns.forEach((column, c) => {
    if (column.better === 'none') return;
    const present = values.filter((_, r) => eligible?.[r] !== false).map((row) => row[c]).filter((value): value is number => value !== null && Number.isFinite(value));
    if (present.length < 2) return;
    const target = column.better === 'higher' ? Math.max(...present) : Math.min(...present);
    if (present.every((value) => value === target)) return;
    values.forEach((row, r) => {
      if (row[c] === target && eligible?.[r] !== false) best[r]![c] = true;
    });
  });
  return best;
}

/** Which load engine ran, in words ("native engine"), as the session recorded it; null when it recorded none (older sessions, imports). */
export function recordedEngine(config: Record<string, unknown>): string | null {
  const engine = recordedEngineOf(config);
  return engine ? engineLabel(engine.kind) : null;
}

/** Where a step sits on a sweep's axis, from its stored load; null when the load is not readable. */
export function stepPosition(load: unknown): StepPosition | null {
  const parsed = StepLoad.safeParse(load);
  if (!parsed.success) return null;
  if (parsed.data.model === 'closed') return { axis: 'connections', value: parsed.data.connections };
  const rate = targetRate(parsed.data);
  return rate === null ? null : { axis: 'rate', value: rate };
}

/** The session's load profile in words; a stored profile this version cannot read says so. */
export function describeConfiguration(config: Record<string, unknown>): string {
  const imported = importProvenanceOf(config);
  if (imported) return `${importedFromText(imported)} (${imported.fileName})`;
  if (!config.profile) return 'no load profile recorded';
  const parsed = LoadProfile.safeParse(config.profile);
  return parsed.success ? describeProfile(parsed.data) : 'a load profile this version of Benchlab cannot read';
}

/** An imported session's provenance in a line (null for a session Benchlab measured). */
function importedNote(config: Record<string, unknown>): string | null {
  const imported = importProvenanceOf(config);
  return imported ? `${importedFromText(imported)}; latency resolution: ${imported.resolution}` : null;
}

/** Percentiles of the distribution chart: dense towards the tail, where servers differ. */
export const DISTRIBUTION_PERCENTILES = [0, 10, 25, 50, 75, 90, 95, 99, 99.5, 99.9, 99.95, 99.99, 99.999] as const;

export function distributionPoints(histogram: LatencyHistogram): Array<{ percentile: number; us: number }> {
  if (histogram.totalCount === 0) return [];
  return DISTRIBUTION_PERCENTILES.map((percentile) => ({ percentile, us: histogram.getValueAtPercentile(percentile) }));
}

/** One session's timeline: runs laid end to end at their start offsets from the session's start. */
export function buildTimeline(session: ComparedSessionInput, index: number): Timeline {
  const timeline: Timeline = { session: index, t: [], rps: [], p99Us: [], steps: [] };
  const origin = Date.parse(session.startedAt ?? session.runs[0]?.startedAt ?? '');
  let cursor = 0;
  for (const run of session.runs) {
    const started = Date.parse(run.startedAt ?? '');
    const offset = Number.isFinite(origin) && Number.isFinite(started) ? Math.max(cursor, Math.round((started - origin) / 1000)) : cursor;
    timeline.steps.push({ t: offset, label: run.stepLabel });
    for (const second of run.seconds) {
      timeline.t.push(offset + second.second);
      timeline.rps.push(second.durationMs > 0 ? (second.requests * 1000) / second.durationMs : 0);
      timeline.p99Us.push(second.p99Us);
    }
    cursor = offset + (run.seconds.at(-1)?.second ?? -1) + 1;
  }
  return timeline;
}

function stepLabels(sessions: readonly ComparedSessionInput[]): string[] {
  const labels: string[] = [];
  for (const session of sessions) for (const run of session.runs) if (!labels.includes(run.stepLabel)) labels.push(run.stepLabel);
  return labels;
}

const VERDICT_NAMES = { names: { a: 'the first', b: 'this' } };

function buildRepeats(sessions: readonly ComparedSessionInput[], groupOf: readonly number[], groupCount: number, labels: readonly string[]): RepeatGroup[] {
  const groups: RepeatGroup[] = [];
  const baseline = new Map<string, { rps: number[]; p99: number[] }>();
  for (let g = 0; g < groupCount; g++) {
    const members = sessions.map((_, i) => i).filter((i) => groupOf[i] === g);
    const first = sessions[members[0]!]!;
    const state = isCompleted(first.status) ? '' : ` (${first.status})`;
    const group: RepeatGroup = { label: members.length > 1 ? `${first.name} (${members.length} runs)` : `${first.name}${state}`, sessions: members, steps: [] };
    for (const label of labels) {
      // A completed configuration's median holds only runs that ran to their end.
      const runs = members.map((i) => sessions[i]!.runs.find((run) => run.stepLabel === label)).filter((run) => run !== undefined && (!state ? isCompleted(run.status) : true));
      const summaries = runs.map((run) => run!.summary).filter((s): s is RunSummary => s !== null);
      if (summaries.length === 0) continue;
      const rps = summaries.map((s) => s.requestsPerSecond);
      const p99 = summaries.map((s) => s.p99Us).filter((v): v is number => v !== null);
      const random = seededRandom(seedFrom([...rps, ...p99]));
      const base = baseline.get(label);
      group.steps.push({
        label,
        rps: bootstrapMedian(rps, random),
        p99Us: p99.length > 0 ? bootstrapMedian(p99, random) : null,
        rpsVsBaseline: g > 0 && base ? ratioVerdict(base.rps, rps, VERDICT_NAMES) : null,
        p99VsBaseline: g > 0 && base ? ratioVerdict(base.p99, p99, VERDICT_NAMES) : null,
      });
      if (g === 0) baseline.set(label, { rps, p99 });
    }
    groups.push(group);
  }
  return groups;
}

export function buildComparison(sessions: readonly ComparedSessionInput[], title?: string): Comparison {
  const allSummaries = sessions.flatMap((session) => session.runs.map((run) => run.summary));
  const anyInFlight = allSummaries.some((summary) => (summary?.books?.inFlight ?? 0) > 0);
  const anyMemory = allSummaries.some((summary) => summary?.serverMemory);
  const columns: CompareColumn[] = [
    ...FIXED_COLUMNS.map(({ key, label, unit, better }) => ({ key, label, unit, better })),
    ...bandColumns(allSummaries),
    ...[...BOOK_COLUMNS, ...(anyInFlight ? [IN_FLIGHT_COLUMN] : []), ...(anyMemory ? MEMORY_COLUMNS : [])].map(({ key, label, unit, better }) => ({ key, label, unit, better })),
  ];
  const labels = stepLabels(sessions);
  const steps: CompareStep[] = labels.map((label) => {
    const found = sessions.flatMap((session, index) => session.runs.filter((run) => run.stepLabel === label).map((run) => ({ index, run })));
    const absent = found.map(({ index }) => importProvenanceOf(sessions[index]!.config)?.absent ?? {});
    const values = found.map(({ run }, r) => columns.map((column) => readColumn(column, run.summary, absent[r])));
    const best = markBest(columns, values, found.map(({ index, run }) => isCompleted(run.status) && isCompleted(sessions[index]!.status)));
    const position = found.map(({ run }) => stepPosition(run.load)).find((candidate) => candidate !== null) ?? null;
    return {
      label,
      position,
      rows: found.map(({ index, run }, r) => {
        const missing = Object.fromEntries(columns.flatMap((column) => (absent[r]![figureOf(column)] ? [[column.key, absent[r]![figureOf(column)]!]] : [])));
        // Where the column is shown, a run without a reading says why, as sessions show does.
        if (anyMemory && !run.summary?.serverMemory) missing.rssMax ??= run.serverMemoryMissing ?? MEMORY_MISSING.noReadings;
        // Only where the phases were measured: an imported or older run has nothing to say about them.
        const latency = run.summary?.phases ? { latency: describePhasesBrief(run.summary.phases, modelOf(run.load)) } : {};
        return {
          session: index,
          runId: run.runId,
          values: values[r]!,
          best: best[r]!,
          steadiness: run.summary?.steadiness ?? null,
          bottleneck: run.bottleneck ?? null,
          status: run.status,
          serverMemory: run.summary?.serverMemory ?? null,
          ...(run.summary?.serverRuntime ? { serverRuntime: describeServerRuntime(run.summary.serverRuntime), serverRuntimeFigures: run.summary.serverRuntime } : {}),
          ...(Object.keys(missing).length > 0 ? { missing } : {}),
          ...latency,
        };
      }),
    };
  });

  const keys: string[] = [];
  const groupOf = sessions.map((session) => {
    const key = configurationKey(session);
    if (!keys.includes(key)) keys.push(key);
    return keys.indexOf(key);
  });

  const names = sessions.map((session) => session.name);
  const knobsApart = distinctKnobs(sessions);
  const databases = diffDatabases(sessions.map((session) => recordedDatabaseOf(session.config)));
  const machines = diffHosts(names, sessions.map((session) => session.systems));
  const runtimes = diffRuntimes(names, sessions.map((session) => session.config));
  const hosts: HostDiff = {
    rows: [...machines.rows, ...runtimes.rows, ...databases.rows],
    warnings: [...machines.warnings, ...runtimes.warnings, ...databases.warnings],
  };
  const warnings = [...hosts.warnings];
  for (const session of sessions) {
    if (session.status !== 'completed') warnings.push(`“${session.name}” is ${session.status}: its figures cover only what was measured.`);
    if (session.noise && session.noise.length > 0) warnings.push(`“${session.name}” started on noisy hosts: ${session.noise.map((finding) => finding.message).join(' ')}`);
    if (session.runs.some((run) => run.summary === null)) warnings.push(`“${session.name}” has runs without measurements.`);
    const imported = importProvenanceOf(session.config);
    if (imported) {
      const missing = imported.missing.length > 0 ? ` Not in the file: ${imported.missing.join('; ')}.` : '';
      warnings.push(`“${session.name}” is ${importedFromText(imported)}: its latencies have the tool's resolution (${imported.resolution}).${missing}`);
    }
    const books = session.runs.map((run) => run.summary?.books);
    if (!imported && books.some((entry) => entry === null)) warnings.push(`“${session.name}” was recorded before Benchlab kept the books: its not-sent requests are unknown.`);
    for (const run of session.runs) {
      const entry = run.summary?.books;
      if (entry && entry.inFlight > 0) warnings.push(`“${session.name}”, ${run.stepLabel}: ${entry.inFlight} requests were still unresolved when the run ended (stopped or cut off).`);
      else if (entry && !entry.balanced) warnings.push(`“${session.name}”, ${run.stepLabel}: the books do not balance (${entry.scheduled} scheduled), so its counts cannot be trusted.`);
    }
  }
  const bandSets = new Set(allSummaries.filter((s): s is RunSummary => s !== null).map((s) => s.bands.map((b) => b.label).join('|')));
  if (bandSets.size > 1) warnings.push('The sessions use different latency buckets: a band column is empty where a session did not have it.');

  return {
    title: title ?? (sessions.length > 0 ? `Comparison: ${names.join(' vs ')}`.slice(0, 300) : 'Comparison'),
    sessions: sessions.map(({ id, name, status, createdAt, startedAt, notes, tags, clientHost, serverHost, ...session }, i) => ({
      id, name, status, createdAt, startedAt, notes, tags, clientHost, serverHost,
      templates: [...new Set(session.runs.map(templateLabel))],
      configuration: describeConfiguration(session.config),
      group: groupOf[i]!,
      imported: importedNote(session.config),
      setups: setupsOf(session.runs),
      engine: recordedEngine(session.config),
      database: recordedDatabaseLine(session.config),
      calibration: calibrationLineOf(session.config),
      distinctKnobs: knobsApart[i]!,
      request: importProvenanceOf(session.config) ? null : sessionRequestOf(session.config),
    })),
    columns,
    steps,
    repeats: buildRepeats(sessions, groupOf, keys.length, labels),
    timelines: sessions.map(buildTimeline),
    distributions: sessions.flatMap((session, index) =>
      session.runs.filter((run) => run.histogram).map((run) => ({ session: index, step: run.stepLabel, points: distributionPoints(run.histogram!) })),
    ),
    hosts,
    warnings,
  };
}
