// What `benchlab run` reads from the store and writes for CI: the runs of the sessions a plan made
// (and of the --baseline, a session id or a tag), the report built from them, and the --json,
// --junit and --markdown files. The report itself is app/plans/plan-report.ts's.

import { stat, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { PlanState } from '../../app/plans/plan.ts';
import { buildPlanReport, planConfigurations, planReportJson, planReportJUnit, planReportMarkdown, type PlanReport, type ReportRun, type ReportTarget } from '../../app/plans/plan-report.ts';
import { evaluateThresholds, type AnyThreshold } from '../../app/plans/thresholds.ts';
import type { Services } from '../services/services.ts';
import { UsageError } from './cli-kit.ts';
import { selectSessions } from './commands/compare.ts';
import { messageOf } from '../../app/common/errors.ts';

export const REPORT_FORMATS = ['json', 'junit', 'markdown'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];
export type ReportFiles = Partial<Record<ReportFormat, string>>;

const WRITERS: Record<ReportFormat, (report: PlanReport) => string> = { json: planReportJson, junit: planReportJUnit, markdown: planReportMarkdown };

export function sessionRuns(services: Services, sessionId: number): ReportRun[] {
  const requestName = services.sessions.get(sessionId).config.requestName;
  return services.runs.list(sessionId).map((run) => ({
    ...(typeof requestName === 'string' ? { requestName } : {}),
    templateId: run.templateId,
    variant: run.variant,
    stepLabel: typeof run.step.label === 'string' ? run.step.label : `step ${run.ordinal}`,
    summary: run.summary,
    status: run.status,
  }));
}

export interface Baseline {
  /** As given on the command line, for the report. */
  ref: string;
  sessionIds: number[];
  runs: ReportRun[];
}

/** `--baseline 42` is session 42; anything else is a tag, every session carrying it (as `benchlab compare` reads them). */
export function findBaseline(services: Services, ref: string): Baseline {
  let sessionIds: number[];
  try {
    sessionIds = selectSessions(services.compare.library(), [ref]);
  } catch (error) {
    throw new UsageError(`--baseline: ${messageOf(error)}`);
  }
  return { ref, sessionIds, runs: sessionIds.flatMap((sessionId) => sessionRuns(services, sessionId)) };
}

/** Refuses, before anything runs, a report file whose folder does not exist. */
export async function checkReportFiles(files: ReportFiles): Promise<void> {
  for (const format of REPORT_FORMATS) {
    const file = files[format];
    if (file === undefined) continue;
    const folder = dirname(resolve(file));
    const found = await stat(folder).catch(() => null);
    if (!found?.isDirectory()) throw new UsageError(`--${format} ${file}: the folder ${folder} does not exist`);
  }
}

export function planReport(
  services: Services,
  input: { plan: PlanState; targets: readonly ReportTarget[]; thresholds: readonly AnyThreshold[]; baseline: Baseline | null; strictBaseline: boolean },
): PlanReport {
  const configurations = planConfigurations(input.plan, input.targets, (sessionId) => sessionRuns(services, sessionId), input.baseline?.runs ?? null);
  return buildPlanReport({
    plan: input.plan,
    configurations,
    thresholds: evaluateThresholds(input.thresholds, configurations, { strictBaseline: input.strictBaseline }),
    baseline: input.baseline?.ref ?? null,
  });
}

/** Writes each asked-for file; returns the paths written. */
export async function writeReports(report: PlanReport, files: ReportFiles): Promise<string[]> {
  const written: string[] = [];
  for (const format of REPORT_FORMATS) {
    const file = files[format];
    if (file === undefined) continue;
    await writeFile(file, WRITERS[format](report), 'utf8');
    written.push(file);
  }
  return written;
}
