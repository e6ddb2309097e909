// The answer a comparison gives first, on the report's first page and at the top of the Compare
// page: one line per configuration (a repeat group: its sessions are runs of one set-up) under a
// short label A, B, C that the charts' legends use too; the headline figures per configuration
// (medians over its runs); who wins each step and by how much, as far as the runs allow
// (compare-stats.ts: a ratio with its 95 % interval, or "too few runs"); and the warnings that
// apply. Pure: built from the Comparison that app/sessions/comparison.ts makes.

import { median } from '../common/median.ts';
import { MIN_RUNS_FOR_VERDICT, ratioVerdict } from './compare-stats.ts';
import { isCompleted, type Comparison, type CompareStep } from './comparison.ts';
import { plural } from '../common/plural.ts';

export interface HeadlineConfiguration {
  letter: string;
  name: string;
  /** Indices into `comparison.sessions`, the configuration's runs. */
  sessions: number[];
  server: string;
  variant: string;
  knobs: string;
  hosts: string;
  /** Null when no session of it recorded which engine ran. */
  engine: string | null;
  load: string;
  /** How its runs ended: "completed", or a lone failed or stopped session's status (never best, never in a verdict). */
  status: string;
}

export const HEADLINE_METRICS = ['rps', 'p50', 'p99', 'max', 'errors'] as const;
export type HeadlineMetric = (typeof HEADLINE_METRICS)[number];

export const HEADLINE_LABELS: Record<HeadlineMetric, string> = { rps: 'Requests/s', p50: 'p50', p99: 'p99', max: 'Max', errors: 'Errors + not sent' };

export interface HeadlineRow {
  configuration: number;
  /** The step the row shows (differs between rows only on a sweep's peak line). */
  step: string;
  runs: number;
  /** Medians over the configuration's runs; latencies in µs; null where nothing was measured. */
  values: Record<HeadlineMetric, number | null>;
  best: Record<HeadlineMetric, boolean>;
}

export interface HeadlineStep {
  label: string;
  rows: HeadlineRow[];
  /** Who is ahead and by how much, one sentence per metric; empty with a single configuration. */
  verdicts: string[];
}

export interface Headline {
  configurations: HeadlineConfiguration[];
  steps: HeadlineStep[];
  /** Why fewer steps than the comparison has are shown (a long sweep), or null. */
  stepNote: string | null;
  /** Whether any configuration has several runs (its figures are medians). */
  repeated: boolean;
  warnings: string[];
}

/** Steps shown one by one in the headline; a longer sweep shows each configuration at its peak. */
export const HEADLINE_MAX_STEPS = 4;

const BETTER: Record<HeadlineMetric, 'higher' | 'lower'> = { rps: 'higher', p50: 'lower', p99: 'lower', max: 'lower', errors: 'lower' };

export function letterOf(index: number): string {
  return index < 26 ? String.fromCharCode(65 + index) : `${letterOf(Math.floor(index / 26) - 1)}${letterOf(index % 26)}`;
}

/** A session's short label in legends: its configuration's letter, numbered when the configuration has several runs ("A2"). */
export function sessionLabel(comparison: Comparison, session: number): string {
  const group = comparison.sessions[session]?.group ?? session;
  const members = comparison.repeats[group]?.sessions ?? [session];
  return members.length > 1 ? `${letterOf(group)}${members.indexOf(session) + 1}` : letterOf(group);
}

const distinct = (values: Array<string | null | undefined>) => [...new Set(values.filter((value): value is string => !!value))];

function configurations(comparison: Comparison): HeadlineConfiguration[] {
  return comparison.repeats.map((group, g) => {
    const sessions = group.sessions.map((i) => comparison.sessions[i]!);
    const first = sessions[0]!;
    const setups = sessions.flatMap((session) => session.setups ?? session.templates.map((template) => ({ template, variant: '', knobs: '' })));
    const engines = distinct(sessions.map((session) => session.engine));
    // A plan names its repeats "… (run 2 of 5)": the configuration is what they share.
    const base = first.name.replace(/ \(run \d+ of \d+\)$/, '');
    // The knobs that tell it from another configuration of the same template, unless the name says them.
    const knobs = first.distinctKnobs && !base.includes(first.distinctKnobs) ? ` · ${first.distinctKnobs}` : '';
    const status = isCompleted(first.status) ? 'completed' : first.status;
    return {
      letter: letterOf(g),
      name: base + knobs + (sessions.length > 1 ? ` (${sessions.length} runs)` : '') + (status === 'completed' ? '' : ` — ${status}`),
      status,
      sessions: group.sessions,
      server: distinct(setups.map((setup) => setup.template)).join(', ') || '—',
      variant: distinct(setups.map((setup) => setup.variant)).join(', ') || 'default',
      knobs: distinct(setups.map((setup) => setup.knobs)).join('; ') || '—',
      hosts: distinct(sessions.map((session) => `${session.clientHost ?? 'not recorded'} → ${session.serverHost ?? 'not recorded'}`)).join('; '),
      engine: engines.length > 0 ? engines.join(', ') : null,
      load: distinct(sessions.map((session) => session.configuration)).join('; '),
    };
  });
}

/** Per configuration, the runs' values of one step and metric (a configuration's session may lack the step). */
function valuesOf(comparison: Comparison, step: CompareStep, metric: HeadlineMetric): number[][] {
  const column = (key: string) => comparison.columns.findIndex((candidate) => candidate.key === key);
  const read = (values: ReadonlyArray<number | null>): number | null => {
    if (metric === 'errors') {
      const failed = values[column('failed')] ?? null;
      const notSent = values[column('notSent')] ?? null;
      return failed === null && notSent === null ? null : (failed ?? 0) + (notSent ?? 0);
    }
    return values[column(metric)] ?? null;
  };
  const completed = completedOf(comparison);
  // A completed configuration's median holds only its runs that ran to their end.
  return comparison.repeats.map((_, g) =>
    step.rows.filter((row) => comparison.sessions[row.session]?.group === g && (!completed[g] || isCompleted(row.status))).flatMap((row) => {
      const value = read(row.values);
      return value === null || !Number.isFinite(value) ? [] : [value];
    }),
  );
}

/** Marks the best of each metric among the completed configurations' rows (a failed run's "0 errors" is no result). */
function markBest(rows: HeadlineRow[], completed: readonly boolean[]): void {
  const eligible = rows.filter((row) => completed[row.configuration]);
  for (const metric of HEADLINE_METRICS) {
    const present = eligible.map((row) => row.values[metric]).filter((value): value is number => value !== null);
    if (present.length < 2) continue;
    const target = BETTER[metric] === 'higher' ? Math.max(...present) : Math.min(...present);
    if (present.every((value) => value === target)) continue;
    for (const row of eligible) row.best[metric] = row.values[metric] === target;
  }
}

/** Whether each configuration ran to its end: only those are ranked. */
function completedOf(comparison: Comparison): boolean[] {
  return comparison.repeats.map((group) => group.sessions.every((i) => isCompleted(comparison.sessions[i]?.status)));
}

/** The runs of the configurations a verdict may rank: an unfinished one's are left out. */
function ranked(runs: readonly number[][], completed: readonly boolean[]): number[][] {
  return runs.map((values, g) => (completed[g] ? values : []));
}

const times = (ratio: number) => `${ratio.toFixed(2)}×`;

/**
 * The leader against the runner-up on one metric, in words: the ratio and its 95 % interval when
 * there are enough runs, else the plain ratio and "too few runs".
 */
function verdict(metric: 'rps' | 'p99', letters: readonly string[], runs: readonly number[][]): string | null {
  const ranked = runs
    .map((values, g) => ({ g, values, center: median(values) }))
    .filter((entry) => entry.values.length > 0)
    .sort((a, b) => (metric === 'rps' ? b.center - a.center : a.center - b.center));
  if (ranked.length < 2) return null;
  const [lead, next] = [ranked[0]!, ranked[1]!];
  const [w, r] = [letters[lead.g]!, letters[next.g]!];
  // Always a ratio above 1: the leader's requests/s over the runner-up's, the runner-up's p99 over the leader's.
  const result = metric === 'rps' ? ratioVerdict(next.values, lead.values) : ratioVerdict(lead.values, next.values);
  const what = metric === 'rps' ? 'Requests/s' : 'p99';
  // "B is 3.49× A": the leader over the runner-up for requests/s, the runner-up over the leader for p99.
  const [big, small] = metric === 'rps' ? [w, r] : [r, w];
  const claim = result.ratio === null ? null : `${big} is ${times(result.ratio)} ${small}${metric === 'p99' ? ` (${w} lower)` : ''}`;
  const counted = lead.values.length === next.values.length ? `${plural(lead.values.length, 'run')} each` : `${lead.values.length} and ${next.values.length} runs`;
  switch (result.kind) {
    case 'higher':
    case 'lower':
      return `${what}: ${claim} (95 % CI ${result.low!.toFixed(2)}–${times(result.high!)}, ${counted}).`;
    case 'no-difference':
      return `${what}: no difference shown between ${w} and ${r} (${claim}, 95 % CI ${result.low!.toFixed(2)}–${times(result.high!)}, ${counted}).`;
    case 'too-few':
      return `${what}: ${claim} — too few runs for a verdict (${counted}; ${MIN_RUNS_FOR_VERDICT} a side needed).`;
    case 'no-ratio':
      return `${what}: ${metric === 'rps' ? `${w} highest` : `${w} lowest`}; no ratio, a run measured 0 or nothing.`;
  }
}

function headlineStep(comparison: Comparison, step: CompareStep, letters: readonly string[]): HeadlineStep {
  const runs = Object.fromEntries(HEADLINE_METRICS.map((metric) => [metric, valuesOf(comparison, step, metric)])) as Record<HeadlineMetric, number[][]>;
  const rows: HeadlineRow[] = comparison.repeats.flatMap((_, g) => {
    if (!step.rows.some((row) => comparison.sessions[row.session]?.group === g)) return [];
    const values = Object.fromEntries(HEADLINE_METRICS.map((metric) => [metric, runs[metric][g]!.length > 0 ? median(runs[metric][g]!) : null])) as HeadlineRow['values'];
    const best = Object.fromEntries(HEADLINE_METRICS.map((metric) => [metric, false])) as HeadlineRow['best'];
    return [{ configuration: g, step: step.label, runs: step.rows.filter((row) => comparison.sessions[row.session]?.group === g).length, values, best }];
  });
  const completed = completedOf(comparison);
  markBest(rows, completed);
  const verdicts = [verdict('rps', letters, ranked(runs.rps, completed)), verdict('p99', letters, ranked(runs.p99, completed))].filter((text): text is string => text !== null);
  return { label: step.label, rows, verdicts };
}

/** Per configuration, the median of its runs at every step in order (null where it has none): the sweep charts' lines. */
export function configurationSeries(comparison: Comparison, metric: HeadlineMetric): Array<Array<number | null>> {
  const perStep = comparison.steps.map((step) => valuesOf(comparison, step, metric));
  return comparison.repeats.map((_, g) => perStep.map((groups) => (groups[g]!.length > 0 ? median(groups[g]!) : null)));
}

/** A long sweep: each configuration at the step where it served the most requests/s. */
function peakStep(comparison: Comparison, letters: readonly string[]): HeadlineStep {
  const perStep = comparison.steps.map((step) => headlineStep(comparison, step, letters));
  const rows: HeadlineRow[] = comparison.repeats.flatMap((_, g) => {
    const candidates = perStep.flatMap((step) => step.rows.filter((row) => row.configuration === g && row.values.rps !== null));
    const peak = candidates.sort((a, b) => b.values.rps! - a.values.rps!)[0];
    return peak ? [{ ...peak, best: { ...peak.best } }] : [];
  });
  for (const row of rows) for (const metric of HEADLINE_METRICS) row.best[metric] = false;
  const completed = completedOf(comparison);
  markBest(rows, completed);
  const peakRuns = comparison.repeats.map((_, g) => {
    const row = rows.find((candidate) => candidate.configuration === g);
    const step = row && comparison.steps.find((candidate) => candidate.label === row.step);
    return step ? valuesOf(comparison, step, 'rps')[g]! : [];
  });
  return { label: 'each configuration at its peak', rows, verdicts: [verdict('rps', letters, ranked(peakRuns, completed))].filter((text): text is string => text !== null) };
}

/** What the first page warns of: the comparison's own warnings, then the runs that were client-bound or not steady. */
function headlineWarnings(comparison: Comparison): string[] {
  const byKind = new Map<string, string[]>();
  const note = (key: string, step: string) => byKind.set(key, [...(byKind.get(key) ?? []), step]);
  for (const step of comparison.steps) {
    for (const row of step.rows) {
      if (row.bottleneck?.verdict === 'client-bound') note(`client\u0000${row.session}`, step.label);
      if (row.steadiness?.steady === false) note(`steady\u0000${row.session}`, step.label);
    }
  }
  const derived = [...byKind].map(([key, steps]) => {
    const [kind, session] = key.split('\u0000') as [string, string];
    const name = comparison.sessions[Number(session)]?.name ?? `#${Number(session) + 1}`;
    const where = comparison.steps.length > 1 ? ` at ${steps.join(', ')}` : '';
    return kind === 'client'
      ? `Client-bound: “${name}”${where} — the load generator, not the server, set the pace; its requests/s are a floor.`
      : `Not steady: “${name}”${where} — requests/s or p50 changed more than 10 % between the halves of the run.`;
  });
  return [...comparison.warnings, ...derived];
}

export function buildHeadline(comparison: Comparison): Headline {
  const configs = configurations(comparison);
  const letters = configs.map((config) => config.letter);
  const long = comparison.steps.length > HEADLINE_MAX_STEPS;
  return {
    configurations: configs,
    steps: long ? [peakStep(comparison, letters)] : comparison.steps.map((step) => headlineStep(comparison, step, letters)),
    stepNote: long ? `A sweep of ${comparison.steps.length} steps: each configuration at the step where it served the most requests/s; every step follows in the tables and charts.` : null,
    repeated: comparison.repeats.some((group) => group.sessions.length > 1),
    warnings: headlineWarnings(comparison),
  };
}
