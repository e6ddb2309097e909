// A comparison written out for other tools (docs/exports.md), one file for all its sessions, from
// the per-session exports of session-export.ts: a JSON document (the first page's answer —
// configurations, headline figures, verdicts, warnings — then each session's own document), a
// CSV per second with the configuration letter and session in front of each row, and the runs'
// merged histograms as an HdrHistogram log, one interval per run tagged with its letter and step.
// Pure: the service reads the sessions (only the compared runs) and hands them here.

import { decodeHistogram } from '../common/hdr.ts';
import { buildHeadline } from './comparison-headline.ts';
import type { Comparison } from './comparison.ts';
import {
  commentText,
  CSV_COLUMNS,
  csvText,
  HDR_LOG_MAX_VALUE_UNIT_RATIO,
  labelOf,
  seconds3,
  sessionCsvRows,
  sessionDocument,
  exportFile,
  slugOf,
  type CsvCell,
  type SessionExportInput,
} from './session-export.ts';
import type { SessionExportFile, SessionExportFormat } from './sessions-contract.ts';

export const COMPARISON_EXPORT_FORMAT = 'benchlab-comparison';
export const COMPARISON_EXPORT_VERSION = 1;

export interface ComparedSessionExport {
  /** Its short label in the report: the configuration's letter, numbered among repeats ("A2"). */
  label: string;
  /** The letter of its configuration. */
  configuration: string;
  input: SessionExportInput;
}

export interface ComparisonExportInput {
  comparison: Comparison;
  /** In the comparison's session order, with only the compared runs. */
  sessions: ComparedSessionExport[];
}

export function exportComparison(input: ComparisonExportInput, format: SessionExportFormat, now = new Date()): SessionExportFile {
  return exportFile(`benchlab-comparison${slugOf(input.comparison.title)}`, format, {
    json: () => comparisonJson(input, now),
    csv: () => comparisonCsv(input),
    'hdr-log': () => comparisonHdrLog(input),
  });
}

export function comparisonJson(input: ComparisonExportInput, now = new Date()): string {
  const headline = buildHeadline(input.comparison);
  const letters = headline.configurations.map((config) => config.letter);
  const document = {
    format: COMPARISON_EXPORT_FORMAT,
    version: COMPARISON_EXPORT_VERSION,
    exportedAt: now.toISOString(),
    title: input.comparison.title,
    configurations: headline.configurations.map(({ letter, name, server, variant, knobs, hosts, engine, load, sessions }) => ({
      letter,
      name,
      server,
      variant,
      knobs,
      hosts,
      engine,
      load,
      sessions: sessions.map((i) => input.comparison.sessions[i]!.id),
    })),
    headline: headline.steps.map((step) => ({
      step: step.label,
      rows: step.rows.map((row) => ({
        configuration: letters[row.configuration]!,
        step: row.step,
        runs: row.runs,
        requestsPerSecond: row.values.rps,
        p50Us: row.values.p50,
        p99Us: row.values.p99,
        maxUs: row.values.max,
        errorsAndNotSent: row.values.errors,
      })),
      verdicts: step.verdicts,
    })),
    warnings: headline.warnings,
    sessions: input.sessions.map(({ label, configuration, input: session }) => ({ label, configuration, ...sessionDocument(session) })),
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}

/** Every compared session's rows of the per-second CSV, each after its configuration, label and session. */
export function comparisonCsv(input: ComparisonExportInput): string {
  const rows: CsvCell[][] = [['configuration', 'label', 'session_id', 'session', ...CSV_COLUMNS]];
  for (const { label, configuration, input: session } of input.sessions) {
    for (const row of sessionCsvRows(session)) rows.push([configuration, label, session.session.id, session.session.name, ...row]);
  }
  return csvText(rows);
}

/**
 * The merged histogram of every compared run as one interval of an HdrHistogram log (format 1.3):
 * tagged `<label>.step-<ordinal>` (tags hold no spaces or commas), from the run's start for its
 * length, timestamps relative to the earliest run. A comment line names each tag.
 */
export function comparisonHdrLog(input: ComparisonExportInput): string {
  const intervals = input.sessions.flatMap(({ label, input: session }) =>
    session.runs.flatMap((run) => {
      if (!run.merged) return [];
      const histogram = decodeHistogram(run.merged);
      if (histogram.totalCount === 0) return [];
      const startMs = Date.parse(run.startedAt ?? '') || Date.parse(session.session.startedAt ?? session.session.createdAt) || 0;
      const endMs = Date.parse(run.endedAt ?? '') || startMs;
      return [{ tag: `${label}.step-${run.ordinal}`, name: `${session.session.name}, ${labelOf(run)}`, startMs, lengthMs: Math.max(0, endMs - startMs), maxUs: histogram.highestEquivalentValue(histogram.maxValue), encoded: run.merged }];
    }),
  );
  const baseMs = intervals.reduce((earliest, interval) => Math.min(earliest, interval.startMs), intervals[0]?.startMs ?? 0);
  const lines = [
    `#[Benchlab comparison: ${commentText(input.comparison.title)}]`,
    '#[Each interval is one run\'s merged histogram. Latency values are in microseconds (us); Interval_Max is in milliseconds (max value unit ratio 1000)]',
    ...intervals.map((interval) => `#[Tag ${interval.tag}: ${commentText(interval.name)}]`),
    '#[Histogram log format version 1.3]',
    `#[StartTime: ${seconds3(baseMs)} (seconds since epoch), ${new Date(baseMs).toISOString()}]`,
    `#[BaseTime: ${seconds3(baseMs)} (seconds since epoch)]`,
    '"StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram"',
    ...intervals
      .sort((a, b) => a.startMs - b.startMs)
      .map((interval) => `Tag=${interval.tag},${seconds3(interval.startMs - baseMs)},${seconds3(interval.lengthMs)},${(interval.maxUs / HDR_LOG_MAX_VALUE_UNIT_RATIO).toFixed(3)},${interval.encoded}`),
  ];
  return `${lines.join('\n')}\n`;
}
