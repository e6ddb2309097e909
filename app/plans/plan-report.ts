// A plan run's results for machines and people: the configurations it measured (each template and
// variant, per load step when the profile sweeps) with their figures — the median over repeats —
// and every threshold's verdict; written as versioned JSON, JUnit XML (one testsuite per plan, one
// testcase per configuration × threshold), Markdown (a table per configuration) and the rows of the
// summary table the CLI prints. Pure: the CLI reads the stored runs and hands them in.

import { formatValue } from '../sessions/comparison-report.ts';
import type { LatencyFigures } from '../common/hdr.ts';
import { median } from '../common/median.ts';
import { escapeXml } from '../sessions/svg-chart.ts';
import type { RunSummary } from '../runs/run-summary-schema.ts';
import type { PlanState, PlanStatus } from './plan.ts';
import { requestsNotSent, requestsSent, type ConfigurationRuns, type ThresholdResult } from './thresholds.ts';

/** Names the JSON so a reader knows what it holds; the version changes only when a field changes meaning or goes. */
export const PLAN_REPORT_FORMAT = 'benchlab-plan-report';
export const PLAN_REPORT_VERSION = 1;

/** One template as the plan ran it, with the name people know it by. */
export interface ReportTarget {
  templateId: string;
  variant: string;
  knobs: Readonly<Record<string, unknown>>;
  /** e.g. "Node.js · async". */
  label: string;
}

/** A stored run of a session, as much of it as the report reads. */
export interface ReportRun {
  templateId: string;
  variant: string;
  stepLabel: string;
  summary: RunSummary | null;
  /** How the run ended (completed, failed, stopped, interrupted); absent: completed. */
  status?: string;
  /** The plan's name for the request its session sent (named requests only); absent or null: unnamed. */
  requestName?: string | null;
}

/** A configuration of the plan: its runs over the repeats, its baseline, and what went wrong. */
export interface PlanConfiguration extends ConfigurationRuns {
  templateId: string;
  variant: string;
  /** The load step's label when the profile has several steps; null for a single step. */
  step: string | null;
  /** The plan's named request it ran, when the plan names its requests; null otherwise. */
  request?: string | null;
  sessionIds: number[];
  /** Failed stages of this configuration, one line each. */
  problems: string[];
  /** How each of its runs ended, in order. */
  statuses: string[];
  /**
   * The summaries its figures are of: the completed runs' (`summaries`, which thresholds judge);
   * only when none completed, the unfinished runs' — shown under their status, never judged.
   */
  shown: ReadonlyArray<RunSummary | null>;
}

export interface ConfigurationFigures extends LatencyFigures {
  /** Runs with a measurement (of the repeats). */
  runs: number;
  requestsPerSecond: number | null;
  /** Failed requests: non-2xx answers, connection errors and timeouts. */
  errors: number | null;
  /** Failed requests in percent of those sent. */
  errorsPercent: number | null;
  timeouts: number | null;
  notSent: number | null;
  /** Requests still unresolved when a run ended (a stopped or cut-off run); 0 for runs that ended normally. */
  inFlight: number | null;
  /** The latency bands (the profile's buckets): each band's count and share of the answers, medians over the runs. */
  bands: Array<{ label: string; count: number; share: number }>;
  /** The server process's memory (RSS, bytes) over the run: lowest, highest, last reading; null where not read. */
  serverMemory: { minBytes: number; maxBytes: number; endBytes: number } | null;
}

export type PlanOutcome = 'passed' | 'failed' | 'cancelled';

export interface PlanReport {
  format: typeof PLAN_REPORT_FORMAT;
  version: typeof PLAN_REPORT_VERSION;
  plan: { id: number; name: string; status: PlanStatus; message: string | null; startedAt: string; endedAt: string | null; sessionIds: number[] };
  /** What --baseline named, or null. */
  baseline: string | null;
  configurations: Array<{
    key: string;
    label: string;
    templateId: string;
    variant: string;
    step: string | null;
    /** The plan's named request this configuration ran; absent for a plan of one unnamed request. */
    request?: string;
    sessionIds: number[];
    problems: string[];
    /** "completed" when every run completed; else how they ended ("failed", "stopped", "2 completed, 1 failed"); "not run" without a run. */
    status: string;
    /** Median over the completed repeats (over the unfinished ones only when none completed: see `status`). */
    figures: ConfigurationFigures;
  }>;
  thresholds: ThresholdResult[];
  /** passed: the plan completed and no threshold fails; cancelled: stopped before its end. */
  outcome: PlanOutcome;
}

function knobsText(knobs: Readonly<Record<string, unknown>>): string {
  const entries = Object.entries(knobs).sort(([a], [b]) => a.localeCompare(b));
  return entries.length === 0 ? '' : ` {${entries.map(([key, value]) => `${key}=${String(value)}`).join(', ')}}`;
}

/**
 * The plan's configurations from its stages and the runs of the sessions they made: one per target,
 * or per target and step when the profile has several steps; the baseline's runs matched by
 * template, variant and step label (knobs are not stored with a run, so they do not match).
 */
export function planConfigurations(
  plan: PlanState,
  targets: readonly ReportTarget[],
  runsOf: (sessionId: number) => readonly ReportRun[],
  baseline: readonly ReportRun[] | null,
): PlanConfiguration[] {
  const configurations: PlanConfiguration[] = [];
  targets.forEach((target, index) => {
    const targetStages = plan.stages.filter((stage) => stage.target === index);
    // With named requests, each request of the target is a configuration of its own (its load stages).
    const requestIndexes = [...new Set(targetStages.filter((stage) => stage.kind === 'load').map((stage) => stage.request ?? null))];
    for (const requestIndex of requestIndexes.length > 0 ? requestIndexes : [null]) {
      const stages = targetStages.filter((stage) => stage.kind !== 'load' || (stage.request ?? null) === requestIndex);
      const sessionIds = stages.filter((stage) => stage.kind === 'load' && stage.sessionId !== null).map((stage) => stage.sessionId!);
      const problems = stages.filter((stage) => stage.status === 'failed').map((stage) => `${stage.label}: ${stage.detail ?? 'failed'}`);
      const runs = sessionIds.flatMap((sessionId) => runsOf(sessionId));
      const request = requestIndex === null ? null : (runs.find((run) => run.requestName)?.requestName ?? `request ${requestIndex + 1}`);
      const steps = [...new Set(runs.map((run) => run.stepLabel))];
      // Thresholds judge the completed runs only; figures fall back on the unfinished ones, under their status.
      const judged = (chosen: readonly ReportRun[]) => {
        const completed = chosen.filter((run) => (run.status ?? 'completed') === 'completed');
        const summaries = completed.map((run) => run.summary);
        return { summaries, shown: completed.length > 0 ? summaries : chosen.map((run) => run.summary), statuses: chosen.map((run) => run.status ?? 'completed') };
      };
      const base = { templateId: target.templateId, variant: target.variant, sessionIds, problems, ...(request !== null ? { request } : {}) };
      const key = `${target.templateId}:${target.variant}${knobsText(target.knobs)}${request !== null ? ` — ${request}` : ''}`;
      const label = `${target.label}${knobsText(target.knobs)}${request !== null ? ` — ${request}` : ''}`;
      // A baseline run of a named request stands only for that request.
      const sameRequest = (run: ReportRun) => request === null || !run.requestName || run.requestName === request;
      const baselineOf = (step: string | null) =>
        baseline === null
          ? null
          : baseline
              .filter((run) => (run.status ?? 'completed') === 'completed' && run.templateId === target.templateId && run.variant === target.variant && sameRequest(run) && (step === null || run.stepLabel === step))
              .map((run) => run.summary);
      if (steps.length <= 1) {
        configurations.push({ ...base, key, label, step: null, ...judged(runs), baseline: baselineOf(null) });
        continue;
      }
      for (const step of steps) {
        configurations.push({
          ...base,
          key: `${key} @ ${step}`,
          label: `${label}, ${step}`,
          step,
          ...judged(runs.filter((run) => run.stepLabel === step)),
          baseline: baselineOf(step),
        });
      }
    }
  });
  return configurations;
}

function medianOf(summaries: readonly RunSummary[], read: (summary: RunSummary) => number | null): number | null {
  const values = summaries.map(read).filter((value): value is number => value !== null && Number.isFinite(value));
  return values.length === 0 ? null : median(values);
}

/** Each band's count and share, medians over the runs, in the first run's band order. */
function bandsOf(measured: readonly RunSummary[]): ConfigurationFigures['bands'] {
  const labels = [...new Set(measured.flatMap((summary) => summary.bands.map((band) => band.label)))];
  return labels.map((label) => {
    const band = (summary: RunSummary) => summary.bands.find((entry) => entry.label === label);
    return { label, count: medianOf(measured, (summary) => band(summary)?.count ?? null) ?? 0, share: medianOf(measured, (summary) => band(summary)?.share ?? null) ?? 0 };
  });
}

function serverMemoryOf(measured: readonly RunSummary[]): ConfigurationFigures['serverMemory'] {
  const read = measured.filter((summary) => summary.serverMemory);
  if (read.length === 0) return null;
  return {
    minBytes: medianOf(read, (summary) => summary.serverMemory!.minBytes)!,
    maxBytes: medianOf(read, (summary) => summary.serverMemory!.maxBytes)!,
    endBytes: medianOf(read, (summary) => summary.serverMemory!.endBytes)!,
  };
}

export function figuresOf(summaries: ReadonlyArray<RunSummary | null>): ConfigurationFigures {
  const measured = summaries.filter((summary): summary is RunSummary => summary !== null);
  return {
    runs: measured.length,
    requestsPerSecond: medianOf(measured, (summary) => (summary.seconds > 0 ? summary.requestsPerSecond : null)),
    meanUs: medianOf(measured, (summary) => summary.meanUs),
    stdDevUs: medianOf(measured, (summary) => summary.stdDevUs),
    p50Us: medianOf(measured, (summary) => summary.p50Us),
    p75Us: medianOf(measured, (summary) => summary.p75Us),
    p90Us: medianOf(measured, (summary) => summary.p90Us),
    p99Us: medianOf(measured, (summary) => summary.p99Us),
    p999Us: medianOf(measured, (summary) => summary.p999Us),
    maxUs: medianOf(measured, (summary) => summary.maxUs),
    errors: medianOf(measured, (summary) => summary.failed),
    errorsPercent: medianOf(measured, (summary) => (requestsSent(summary) > 0 ? (summary.failed / requestsSent(summary)) * 100 : null)),
    timeouts: medianOf(measured, (summary) => summary.errors.timeout ?? 0),
    notSent: medianOf(measured, (summary) => requestsNotSent(summary)),
    inFlight: medianOf(measured, (summary) => summary.books?.inFlight ?? null),
    bands: bandsOf(measured),
    serverMemory: serverMemoryOf(measured),
  };
}

/** How a configuration's runs ended, in a word or two: "completed", "stopped", "2 completed, 1 failed", "not run". */
export function statusOf(statuses: readonly string[]): string {
  if (statuses.length === 0) return 'not run';
  const counts = new Map<string, number>();
  for (const status of statuses) counts.set(status, (counts.get(status) ?? 0) + 1);
  if (counts.size === 1) return statuses[0]!;
  return [...counts].map(([status, n]) => `${n} ${status}`).join(', ');
}

export function buildPlanReport(input: { plan: PlanState; configurations: readonly PlanConfiguration[]; thresholds: readonly ThresholdResult[]; baseline: string | null }): PlanReport {
  const { plan } = input;
  const failing = input.thresholds.some((result) => result.failsRun);
  const outcome: PlanOutcome = plan.status === 'cancelled' || plan.status === 'interrupted' ? 'cancelled' : plan.status === 'completed' && !failing ? 'passed' : 'failed';
  return {
    format: PLAN_REPORT_FORMAT,
    version: PLAN_REPORT_VERSION,
    plan: { id: plan.id, name: plan.name, status: plan.status, message: plan.message, startedAt: plan.startedAt, endedAt: plan.endedAt, sessionIds: [...plan.sessionIds] },
    baseline: input.baseline,
    configurations: input.configurations.map((configuration) => ({
      key: configuration.key,
      label: configuration.label,
      templateId: configuration.templateId,
      variant: configuration.variant,
      step: configuration.step,
      ...(configuration.request ? { request: configuration.request } : {}),
      sessionIds: configuration.sessionIds,
      problems: configuration.problems,
      status: statusOf(configuration.statuses),
      figures: figuresOf(configuration.shown),
    })),
    thresholds: [...input.thresholds],
    outcome,
  };
}

export function planReportJson(report: PlanReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

// --- Text cells, shared by the summary table and Markdown ---------------------------------------------

const latency = (us: number | null) => formatValue({ unit: 'us' }, us);
const rate = (rps: number | null) => formatValue({ unit: 'rps' }, rps);
const count = (value: number | null) => formatValue({ unit: 'count' }, value);

function errorsCell(figures: ConfigurationFigures): string {
  if (figures.errors === null) return '—';
  return figures.errorsPercent === null ? count(figures.errors) : `${count(figures.errors)} (${figures.errorsPercent.toFixed(2)}%)`;
}

function verdictWord(result: ThresholdResult): string {
  if (result.status === 'holds') return 'ok';
  if (result.status === 'fails') return 'FAILED';
  return result.failsRun ? "FAILED (can't tell)" : "can't tell";
}

function thresholdsCell(results: readonly ThresholdResult[]): string {
  if (results.length === 0) return '—';
  const failed = results.filter((result) => result.failsRun).length;
  const unsure = results.filter((result) => result.status === 'cant-tell' && !result.failsRun).length;
  return [failed > 0 ? `${failed} FAILED` : `${results.length - unsure} ok`, ...(unsure > 0 ? [`${unsure} can't tell`] : [])].join(', ');
}

function resultsOf(report: PlanReport, key: string): ThresholdResult[] {
  return report.thresholds.filter((result) => result.configuration === key);
}

const bytes = (value: number | null | undefined) => formatValue({ unit: 'bytes' }, value ?? null);

/** Whether any configuration left requests in flight (a stopped or cut-off run): then they get a column. */
function anyInFlight(report: PlanReport): boolean {
  return report.configurations.some((configuration) => (configuration.figures.inFlight ?? 0) > 0);
}

/** Whether any configuration has the server's memory: then it gets a column. */
function anyMemory(report: PlanReport): boolean {
  return report.configurations.some((configuration) => configuration.figures.serverMemory !== null);
}

/** The summary table the CLI prints on stdout: a header and one row per configuration. */
export function summaryRows(report: PlanReport): { headers: string[]; rows: string[][] } {
  const inFlight = anyInFlight(report);
  const memory = anyMemory(report);
  return {
    headers: ['configuration', 'status', 'runs', 'req/s', 'p50', 'p99', 'max', 'errors', 'not sent', ...(inFlight ? ['in flight'] : []), ...(memory ? ['server RSS max'] : []), 'thresholds'],
    rows: report.configurations.map((configuration) => {
      const figures = configuration.figures;
      return [
        configuration.label,
        configuration.status,
        String(figures.runs),
        rate(figures.requestsPerSecond),
        latency(figures.p50Us),
        latency(figures.p99Us),
        latency(figures.maxUs),
        errorsCell(figures),
        count(figures.notSent),
        ...(inFlight ? [count(figures.inFlight)] : []),
        ...(memory ? [bytes(figures.serverMemory?.maxBytes)] : []),
        thresholdsCell(resultsOf(report, configuration.key)),
      ];
    }),
  };
}

/** One line per threshold that fails the run (or cannot tell), e.g. "FAILED node (async): p99 < 20ms — p99 = 23.4ms, not < 20ms". */
export function thresholdLines(report: PlanReport): string[] {
  return report.thresholds
    .filter((result) => result.status !== 'holds')
    .map((result) => `${verdictWord(result)} ${result.label}: ${result.threshold} — ${result.message}`);
}

// --- JUnit XML ------------------------------------------------------------------------------------------

/** XML 1.0 allows no C0 control characters but tab, line feed and carriage return. */
function xml(text: string): string {
  // eslint-disable-next-line no-control-regex
  return escapeXml(text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, ''));
}

function seconds(plan: PlanReport['plan']): number {
  const started = Date.parse(plan.startedAt);
  const ended = Date.parse(plan.endedAt ?? '');
  return Number.isFinite(started) && Number.isFinite(ended) ? Math.max(0, (ended - started) / 1000) : 0;
}

interface JUnitCase {
  classname: string;
  name: string;
  failure?: { message: string; body: string };
  error?: { message: string; body: string };
  skipped?: string;
}

function testcase(entry: JUnitCase): string {
  const open = `    <testcase classname="${xml(entry.classname)}" name="${xml(entry.name)}" time="0"`;
  if (entry.failure) return `${open}>\n      <failure type="threshold" message="${xml(entry.failure.message)}">${xml(entry.failure.body)}</failure>\n    </testcase>`;
  if (entry.error) return `${open}>\n      <error type="run" message="${xml(entry.error.message)}">${xml(entry.error.body)}</error>\n    </testcase>`;
  if (entry.skipped !== undefined) return `${open}>\n      <skipped message="${xml(entry.skipped)}"/>\n    </testcase>`;
  return `${open}/>`;
}

/**
 * JUnit XML as CI servers read it: one testsuite for the plan; per configuration a testcase that it
 * ran (an error with the failed stages when not) and one per threshold (a failure with the measured
 * value and the bound; a baseline that cannot tell and does not fail is skipped).
 */
export function planReportJUnit(report: PlanReport): string {
  const cases: JUnitCase[] = [];
  if (report.plan.status !== 'completed' && report.plan.message) {
    cases.push({ classname: report.plan.name, name: 'plan', error: { message: `the plan ${report.plan.status}`, body: report.plan.message } });
  }
  for (const configuration of report.configurations) {
    const classname = `${report.plan.name}.${configuration.label}`;
    const ran: JUnitCase = { classname, name: 'ran to the end' };
    if (configuration.problems.length > 0) ran.error = { message: configuration.problems[0]!, body: configuration.problems.join('\n') };
    else if (configuration.figures.runs === 0) ran.error = { message: 'nothing was measured', body: 'nothing was measured' };
    cases.push(ran);
    for (const result of resultsOf(report, configuration.key)) {
      const entry: JUnitCase = { classname, name: result.threshold };
      const body = `measured ${result.measuredText}, bound ${result.bound}\n${result.message}`;
      if (result.failsRun) entry.failure = { message: result.message, body };
      else if (result.status === 'cant-tell') entry.skipped = result.message;
      cases.push(entry);
    }
  }
  const failures = cases.filter((entry) => entry.failure).length;
  const errors = cases.filter((entry) => entry.error).length;
  const skipped = cases.filter((entry) => entry.skipped !== undefined).length;
  const time = seconds(report.plan).toFixed(3);
  const counts = `tests="${cases.length}" failures="${failures}" errors="${errors}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="benchlab" ${counts} time="${time}">`,
    `  <testsuite name="${xml(report.plan.name)}" ${counts} skipped="${skipped}" time="${time}" timestamp="${xml(report.plan.startedAt)}">`,
    '    <properties>',
    `      <property name="status" value="${xml(report.plan.status)}"/>`,
    `      <property name="sessions" value="${report.plan.sessionIds.join(',')}"/>`,
    ...(report.baseline !== null ? [`      <property name="baseline" value="${xml(report.baseline)}"/>`] : []),
    '    </properties>',
    ...cases.map(testcase),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

// --- Markdown -------------------------------------------------------------------------------------------

/** A table cell: a pipe would end the cell, a line break the row. */
function cell(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

function row(cells: readonly string[]): string {
  return `| ${cells.map(cell).join(' | ')} |`;
}

const OUTCOME_WORDS: Record<PlanOutcome, string> = { passed: 'passed', failed: 'FAILED', cancelled: 'cancelled' };

/** Markdown for a pull request or a job summary: the outcome, then per configuration its figures and its thresholds. */
export function planReportMarkdown(report: PlanReport): string {
  const lines = [`# ${cell(report.plan.name)}: ${OUTCOME_WORDS[report.outcome]}`, ''];
  lines.push(`Plan ${report.plan.status}, started ${report.plan.startedAt}; sessions ${report.plan.sessionIds.join(', ') || 'none'}${report.baseline !== null ? `; baseline ${cell(report.baseline)}` : ''}.`);
  if (report.plan.message) lines.push('', ...report.plan.message.split('\n').map((line) => `> ${line}`));
  const inFlight = anyInFlight(report);
  for (const configuration of report.configurations) {
    const figures = configuration.figures;
    const over = figures.runs > 1 ? ` (median of ${figures.runs} runs)` : '';
    lines.push('', `## ${cell(configuration.label)}${over}`, '');
    if (configuration.status !== 'completed') lines.push(`Status: **${cell(configuration.status)}**: ${figures.runs > 0 && configuration.status.includes('completed') ? 'the figures are of the completed runs' : 'partial figures, of what was measured before it ended'}.`, '');
    const headers = ['requests/s', 'mean', 'std dev', 'p50', 'p75', 'p90', 'p99', 'max', 'errors', 'not sent', ...(inFlight ? ['in flight'] : [])];
    lines.push(row(headers), `|${headers.map(() => '---:').join('|')}|`);
    lines.push(
      row([
        rate(figures.requestsPerSecond),
        latency(figures.meanUs),
        latency(figures.stdDevUs),
        latency(figures.p50Us),
        latency(figures.p75Us),
        latency(figures.p90Us),
        latency(figures.p99Us),
        latency(figures.maxUs),
        errorsCell(figures),
        count(figures.notSent),
        ...(inFlight ? [count(figures.inFlight)] : []),
      ]),
    );
    if (figures.bands.length > 1) lines.push('', `Latency buckets: ${figures.bands.map((band) => `${band.label} ${count(band.count)} (${(band.share * 100).toFixed(1)} %)`).join(' · ')}.`);
    const memory = figures.serverMemory;
    if (memory) lines.push('', `Server memory (RSS): ${bytes(memory.minBytes)} min, ${bytes(memory.maxBytes)} max, ${bytes(memory.endBytes)} at the end.`);
    for (const problem of configuration.problems) lines.push('', `> ${cell(problem)}`);
    const results = resultsOf(report, configuration.key);
    if (results.length > 0) {
      lines.push('', row(['threshold', 'measured', 'result']), '|---|---:|---|');
      for (const result of results) lines.push(row([result.threshold, result.measuredText, verdictWord(result)]));
    }
  }
  return `${lines.join('\n')}\n`;
}
