// A stored session written out for other tools (docs/exports.md): a versioned JSON document (the
// session, each run's step and stored summary, every stored second of every client), a CSV with one
// row per second (several clients merged exactly), and an HdrHistogram interval log of the per-second histograms that HdrHistogram's
// own log readers parse. Pure: the service reads the session, its runs and their seconds through the
// repositories and hands them here; nothing is recomputed except what a run cut off before its end
// never stored (its summary, by the one summarizer).

import { createLatencyHistogram, decodeHistogram, encodeHistogram } from '../common/hdr.ts';
import { hasControlCharacters } from '../common/text.ts';
import { durationOf, type RunSecond } from '../runs/run-second.ts';
import { MERGED_CLIENT_INDEX, mergedBySecond } from '../runs/merge-seconds.ts';
import { ERROR_KINDS, NOT_SENT_REASONS, STATUS_CLASSES, type RunSummary } from '../runs/run-summary-schema.ts';
import { summarizeRun, summaryRulesOf } from '../runs/summarize-run.ts';
import { recordedEngineOf } from '../runs/engine-choice.ts';
import type { SecondServerMetrics } from '../runs/agent-protocol.ts';
import { coreCpuOf, withoutCores } from '../runs/core-busy.ts';
import { serverMemoryOf } from '../runs/server-memory.ts';
import { recordedDatabaseOf } from '../templates/recorded-database.ts';
import { importProvenanceOf } from './importers/imported-result.ts';
import type { SessionExportFile, SessionExportFormat } from './sessions-contract.ts';
import type { Session } from './sessions.ts';

export const SESSION_EXPORT_FORMAT = 'benchlab-session';
export const SESSION_EXPORT_VERSION = 1;

/** One run of the session as the store gives it back, with every stored second (histograms included). */
export interface ExportRun {
  ordinal: number;
  templateId: string;
  variant: string;
  knobs: Record<string, unknown>;
  step: Record<string, unknown>;
  status: string;
  startedAt: string | null;
  endedAt: string | null;
  summary: RunSummary | null;
  /** Stored seconds in order (the drain last), with their encoded histograms. */
  seconds: RunSecond[];
  /** The run's merged histogram as stored (base64), read only for a comparison's merged-histogram log. */
  merged?: string | null;
}

export interface SessionExportInput {
  session: Session;
  hosts: { client: string | null; server: string | null };
  runs: ExportRun[];
}

const EXPORT_KINDS: Record<SessionExportFormat, { extension: string; mediaType: string }> = {
  json: { extension: 'json', mediaType: 'application/json' },
  csv: { extension: 'csv', mediaType: 'text/csv' },
  'hdr-log': { extension: 'hlog', mediaType: 'text/plain' },
};

/** One export file named `<base>.<extension>` of the format, its content rendered only for that format. */
export function exportFile(base: string, format: SessionExportFormat, render: Record<SessionExportFormat, () => string>): SessionExportFile {
  const kind = EXPORT_KINDS[format];
  return { fileName: `${base}.${kind.extension}`, mediaType: kind.mediaType, content: render[format]() };
}

export function exportSession(input: SessionExportInput, format: SessionExportFormat, now = new Date()): SessionExportFile {
  return exportFile(`benchlab-session-${input.session.id}${slugOf(input.session.name)}`, format, {
    json: () => sessionJson(input, now),
    csv: () => sessionCsv(input),
    'hdr-log': () => sessionHdrLog(input),
  });
}

// ── JSON ────────────────────────────────────────────────────────────────────────────────────────

/** The JSON document, keys in the documented order, two-space indented, ending with a newline. */
export function sessionJson(input: SessionExportInput, now = new Date()): string {
  const document = { format: SESSION_EXPORT_FORMAT, version: SESSION_EXPORT_VERSION, exportedAt: now.toISOString(), ...sessionDocument(input) };
  return `${JSON.stringify(document, null, 2)}\n`;
}

/** The session and its runs as the JSON document holds them (a comparison's export holds one per session). */
export function sessionDocument(input: SessionExportInput) {
  const { session } = input;
  const config = session.config;
  return {
    session: {
      id: session.id,
      name: session.name,
      status: session.status,
      tags: session.tags,
      notes: session.notes,
      createdAt: session.createdAt,
      startedAt: session.startedAt,
      endedAt: session.endedAt,
      hosts: { client: input.hosts.client, server: input.hosts.server },
      // The engine that ran (native or node) as the session recorded it; null before engines were recorded.
      engine: recordedEngineOf(config)?.kind ?? null,
      components: componentsOf(config),
      // The private database its deployment started: kind, version, port, name, owner and settings (never a password).
      database: databaseOf(config),
      templates: distinctTemplates(input.runs),
      profile: config.profile === undefined ? null : withSortedKeys(config.profile),
      // Where an imported session came from (the tool, its file, what it lacked); null for a measured one.
      imported: withSortedKeys(importProvenanceOf(config)),
    },
    runs: input.runs.map((run) => ({
      ordinal: run.ordinal,
      label: labelOf(run),
      template: run.templateId,
      variant: run.variant,
      knobs: withSortedKeys(run.knobs),
      status: run.status,
      startedAt: run.startedAt,
      endedAt: run.endedAt,
      step: withSortedKeys(run.step),
      summary: summaryDocument(summaryOf(run, config.profile)),
      seconds: run.seconds.map(secondDocument),
    })),
  };
}

/** What the server ran on and with (runtime and bundled packages, name → version) as the session recorded it, or null. */
function componentsOf(config: Record<string, unknown>): Record<string, string> | null {
  const components = config.components;
  if (typeof components !== 'object' || components === null || Array.isArray(components)) return null;
  const entries = Object.entries(components).filter((entry): entry is [string, string] => typeof entry[1] === 'string');
  return entries.length > 0 ? (withSortedKeys(Object.fromEntries(entries)) as Record<string, string>) : null;
}

function databaseOf(config: Record<string, unknown>) {
  const facts = recordedDatabaseOf(config);
  return facts ? withSortedKeys(facts) : null;
}

function distinctTemplates(runs: readonly ExportRun[]): Array<{ template: string; variant: string; knobs: unknown }> {
  const seen = new Map<string, { template: string; variant: string; knobs: unknown }>();
  for (const run of runs) {
    const entry = { template: run.templateId, variant: run.variant, knobs: withSortedKeys(run.knobs) };
    const key = JSON.stringify(entry);
    if (!seen.has(key)) seen.set(key, entry);
  }
  return [...seen.values()];
}

/** The stored summary; a run cut off before its summary was written is summarized from its seconds, as Compare does. */
function summaryOf(run: ExportRun, profile: unknown): RunSummary | null {
  // A summary stored before the server's memory was kept gets it from the stored seconds.
  if (run.summary) return run.summary.serverMemory === undefined ? { ...run.summary, serverMemory: serverMemoryOf(run.seconds) } : run.summary;
  if (run.seconds.length === 0) return null;
  return summarizeRun(run.seconds, summaryRulesOf(profile, run.step)).summary;
}

function summaryDocument(summary: RunSummary | null) {
  if (!summary) return null;
  return {
    seconds: summary.seconds,
    requests: summary.requests,
    bytes: summary.bytes,
    requestsPerSecond: summary.requestsPerSecond,
    bytesPerSecond: summary.bytesPerSecond,
    meanUs: summary.meanUs,
    stdDevUs: summary.stdDevUs,
    p50Us: summary.p50Us,
    p75Us: summary.p75Us,
    p90Us: summary.p90Us,
    p99Us: summary.p99Us,
    p999Us: summary.p999Us,
    maxUs: summary.maxUs,
    bands: summary.bands.map((band) => ({ label: band.label, fromMs: band.fromMs, toMs: band.toMs, count: band.count, share: band.share })),
    errors: orderedCounts(summary.errors, ERROR_KINDS),
    notSent: orderedCounts(summary.notSent ?? {}, NOT_SENT_REASONS),
    status: orderedCounts(summary.status, STATUS_CLASSES),
    non2xx: summary.non2xx ?? 0,
    failed: summary.failed,
    timeoutsInLatency: summary.timeoutsInLatency ?? false,
    drainMs: summary.drainMs ?? 0,
    books: summary.books
      ? {
          scheduled: summary.books.scheduled,
          answered: summary.books.answered,
          errors: summary.books.errors,
          timeouts: summary.books.timeouts,
          notSent: summary.books.notSent,
          inFlight: summary.books.inFlight,
          balanced: summary.books.balanced,
        }
      : null,
    steadiness: summary.steadiness ? { steady: summary.steadiness.steady, message: summary.steadiness.message } : null,
    // ab's rows (connect, waiting, processing, total); null for runs recorded before they were measured.
    phases: summary.phases ?? null,
    serverMemory: summary.serverMemory ? { minBytes: summary.serverMemory.minBytes, maxBytes: summary.serverMemory.maxBytes, endBytes: summary.serverMemory.endBytes } : null,
  };
}

function secondDocument(second: RunSecond) {
  const durationMs = durationOf(second);
  return {
    second: second.second,
    client: second.clientIndex,
    phase: second.phase,
    durationMs,
    scheduled: second.scheduled,
    requests: second.requests,
    requestsPerSecond: ratePerSecond(second.requests, durationMs),
    bytes: second.bytes,
    p50Us: second.p50Us,
    p90Us: second.p90Us,
    p99Us: second.p99Us,
    maxUs: second.maxUs,
    errors: orderedCounts(second.errors, ERROR_KINDS),
    notSent: orderedCounts(second.notSent, NOT_SENT_REASONS),
    inFlight: second.inFlight,
    status: orderedCounts(second.statusClasses, STATUS_CLASSES),
    /** Answers whose request opened its own connection (their latency includes it); null before the phases were measured. */
    withConnect: second.phases?.withConnect ?? null,
    clientMetrics: second.clientMetrics ? withSortedKeys(second.clientMetrics) : null,
    serverMetrics: second.serverMetrics ? withSortedKeys(exportedServerMetrics(second.serverMetrics)) : null,
  };
}

/** The server's reading with each core's busy share as a list, `coreCpu` (core 0 first), however the row stored them. */
function exportedServerMetrics(server: Readonly<SecondServerMetrics>): Record<string, unknown> {
  const cores = coreCpuOf(server);
  return cores.length > 0 ? { ...withoutCores(server), coreCpu: cores } : withoutCores(server);
}

/** The known kinds first, in their order and zero when absent, then anything else a store held, sorted. */
function orderedCounts(counts: Readonly<Record<string, number>>, known: readonly string[]): Record<string, number> {
  const ordered: Record<string, number> = {};
  for (const kind of known) ordered[kind] = counts[kind] ?? 0;
  for (const kind of Object.keys(counts).sort()) if (!(kind in ordered)) ordered[kind] = counts[kind]!;
  return ordered;
}

/** Objects of no fixed shape (profile, step, knobs, metrics) with their keys sorted, so two exports of one session are byte-identical. */
function withSortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withSortedKeys);
  if (value && typeof value === 'object') {
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) sorted[key] = withSortedKeys((value as Record<string, unknown>)[key]);
    return sorted;
  }
  return value;
}

// ── CSV ─────────────────────────────────────────────────────────────────────────────────────────

export const CSV_COLUMNS = [
  'run',
  'step',
  'template',
  'variant',
  'second',
  'client',
  'phase',
  'duration_ms',
  'requests',
  'rps',
  'bytes',
  'p50_us',
  'p90_us',
  'p99_us',
  'max_us',
  ...ERROR_KINDS.map((kind) => `errors_${kind}`),
  ...NOT_SENT_REASONS.map((reason) => `not_sent_${reason.replace('-', '_')}`),
  'not_sent',
  'scheduled',
  'in_flight',
  'with_connect',
  ...STATUS_CLASSES.map((status) => `status_${status}`),
  // The server host's reading of the second (empty where it was not read).
  'server_cpu',
  'server_busiest_core_cpu',
  'server_process_cpu',
  'server_rss_bytes',
  'server_threads',
  'server_run_queue',
  'server_voluntary_switches_per_s',
  'server_involuntary_switches_per_s',
  'server_tcp_retransmits',
  'server_listen_overflows',
  'server_gc_pauses',
  'server_gc_pause_ms',
  'server_gc_longest_pause_ms',
  'server_heap_after_gc_bytes',
  'server_event_loop_p50_ms',
  'server_event_loop_p99_ms',
  'server_event_loop_max_ms',
  'server_monitor_wakes_per_s',
] as const;

export type CsvCell = string | number | null;

/**
 * One row per second, in run then second order, several clients' seconds merged exactly (client
 * `all`; the JSON keeps each client's own); RFC 4180 (CRLF line ends, quoted where needed).
 */
export function sessionCsv(input: SessionExportInput): string {
  return csvText([[...CSV_COLUMNS], ...sessionCsvRows(input)]);
}

export function csvText(rows: ReadonlyArray<readonly CsvCell[]>): string {
  return rows.map((row) => `${row.map(csvCell).join(',')}\r\n`).join('');
}

/** The server's figures of a second in the CSV's server_* columns' order; empty cells where unknown. */
function serverCells(server: Readonly<SecondServerMetrics> | null): CsvCell[] {
  const figures = [server?.cpu, server?.busiestCoreCpu, server?.processCpu, server?.processRssBytes, server?.processThreads, server?.runQueue, server?.processVoluntarySwitchesPerS, server?.processInvoluntarySwitchesPerS, server?.tcpRetransmits, server?.listenOverflows,
    server?.gcPauses, server?.gcPauseMs, server?.gcLongestPauseMs, server?.heapAfterGcBytes, server?.eventLoopDelayP50Ms, server?.eventLoopDelayP99Ms, server?.eventLoopDelayMaxMs,
    server?.monitorWakesPerS];
  return figures.map((figure) => figure ?? null);
}

/** The CSV's rows without its header, in CSV_COLUMNS order. */
export function sessionCsvRows(input: SessionExportInput): CsvCell[][] {
  const rows: CsvCell[][] = [];
  for (const run of input.runs) {
    for (const second of mergedBySecond(run.seconds, { histogram: false })) {
      const durationMs = durationOf(second);
      rows.push([
        run.ordinal,
        labelOf(run),
        run.templateId,
        run.variant,
        second.second,
        second.clientIndex === MERGED_CLIENT_INDEX ? 'all' : second.clientIndex,
        second.phase,
        durationMs,
        second.requests,
        ratePerSecond(second.requests, durationMs),
        second.bytes,
        second.p50Us,
        second.p90Us,
        second.p99Us,
        second.maxUs,
        ...ERROR_KINDS.map((kind) => second.errors[kind] ?? 0),
        ...NOT_SENT_REASONS.map((reason) => second.notSent[reason] ?? 0),
        NOT_SENT_REASONS.reduce((total, reason) => total + (second.notSent[reason] ?? 0), 0),
        second.scheduled,
        second.inFlight,
        second.phases?.withConnect ?? null,
        ...STATUS_CLASSES.map((status) => second.statusClasses[status] ?? 0),
        ...serverCells(second.serverMetrics),
      ]);
    }
  }
  return rows;
}

/**
 * A text cell a spreadsheet would run as a formula (= + - @, or a tab or carriage return that some
 * read as one) gets a leading apostrophe; then RFC 4180 quoting. Numbers are written as numbers.
 */
export function csvCell(value: CsvCell): string {
  if (value === null) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

// ── HdrHistogram interval log ───────────────────────────────────────────────────────────────────

/** Interval_Max is written in ms: the log's values are µs, divided by this max value unit ratio. */
export const HDR_LOG_MAX_VALUE_UNIT_RATIO = 1000;

interface LogInterval {
  tag: string | null;
  startMs: number;
  lengthMs: number;
  maxUs: number;
  encoded: string;
}

/**
 * The per-second histograms as an HdrHistogram interval log (format 1.3): several clients' histograms
 * of one second are added into one interval; timestamps are seconds relative to the BaseTime line;
 * each run gets a `Tag=run-<ordinal>` when the session has several. Seconds of every phase stored are
 * written (the drain's answers are in the run's summary too), so adding every interval of a tag gives
 * the run's merged histogram.
 */
export function sessionHdrLog(input: SessionExportInput): string {
  const tagged = input.runs.length > 1;
  const intervals = input.runs.flatMap((run) => runIntervals(run, tagged ? `run-${run.ordinal}` : null, input.session));
  const baseMs = intervals.reduce((earliest, interval) => Math.min(earliest, interval.startMs), intervals[0]?.startMs ?? sessionStartMs(input.session));
  const lines = [
    `#[Benchlab session ${input.session.id}: ${commentText(input.session.name)}]`,
    '#[Latency values are in microseconds (us); Interval_Max is in milliseconds (max value unit ratio 1000)]',
    ...importedComment(input.session),
    ...(tagged ? input.runs.map((run) => `#[Tag run-${run.ordinal}: ${commentText(describeRun(run))}]`) : []),
    '#[Histogram log format version 1.3]',
    `#[StartTime: ${seconds3(baseMs)} (seconds since epoch), ${new Date(baseMs).toISOString()}]`,
    `#[BaseTime: ${seconds3(baseMs)} (seconds since epoch)]`,
    '"StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram"',
    // Readers expect the intervals in time order; runs of a session follow each other.
    ...intervals
      .sort((a, b) => a.startMs - b.startMs)
      .map((interval) => {
        const fields = `${seconds3(interval.startMs - baseMs)},${seconds3(interval.lengthMs)},${(interval.maxUs / HDR_LOG_MAX_VALUE_UNIT_RATIO).toFixed(3)},${interval.encoded}`;
        return interval.tag ? `Tag=${interval.tag},${fields}` : fields;
      }),
  ];
  return `${lines.join('\n')}\n`;
}

function runIntervals(run: ExportRun, tag: string | null, session: Session): LogInterval[] {
  const runStartMs = Date.parse(run.startedAt ?? '') || sessionStartMs(session);
  const bySecond = new Map<number, { startMs: number; lengthMs: number; histogram: ReturnType<typeof createLatencyHistogram> }>();
  for (const second of run.seconds) {
    const lengthMs = durationOf(second);
    // The agent stamps each second's end; rows without it sit at their index from the run's start.
    const at = second.clientMetrics?.at;
    const startMs = typeof at === 'number' ? at - lengthMs : runStartMs + second.second * 1000;
    let interval = bySecond.get(second.second);
    if (!interval) {
      interval = { startMs, lengthMs, histogram: createLatencyHistogram() };
      bySecond.set(second.second, interval);
    }
    interval.startMs = Math.min(interval.startMs, startMs);
    interval.lengthMs = Math.max(interval.lengthMs, lengthMs);
    if (second.histogram) interval.histogram.add(decodeHistogram(second.histogram));
  }
  return [...bySecond.values()].map(({ startMs, lengthMs, histogram }) => ({
    tag,
    startMs,
    lengthMs,
    maxUs: histogram.totalCount === 0 ? 0 : histogram.highestEquivalentValue(histogram.maxValue),
    encoded: encodeHistogram(histogram),
  }));
}

/** An imported session's log says whose measurements these are, and to what resolution. */
function importedComment(session: Session): string[] {
  const imported = importProvenanceOf(session.config);
  return imported ? [`#[Imported from ${imported.format} (${commentText(imported.fileName)}): ${commentText(imported.resolution)}]`] : [];
}

function sessionStartMs(session: Session): number {
  return Date.parse(session.startedAt ?? session.createdAt) || 0;
}

/** Seconds with three decimals from milliseconds, as the log format writes every time. */
export function seconds3(ms: number): string {
  return (ms / 1000).toFixed(3);
}

/** Comment lines hold one line of text. */
export function commentText(text: string): string {
  return [...text].map((char) => (hasControlCharacters(char) ? ' ' : char)).join('');
}

// ── shared ──────────────────────────────────────────────────────────────────────────────────────

export function labelOf(run: ExportRun): string {
  return typeof run.step.label === 'string' ? run.step.label : `step ${run.ordinal}`;
}

function describeRun(run: ExportRun): string {
  return `step ${run.ordinal} "${labelOf(run)}", template ${run.templateId}${run.variant ? ` (${run.variant})` : ''}`;
}

function ratePerSecond(count: number, durationMs: number): number {
  return durationMs > 0 ? count / (durationMs / 1000) : 0;
}

/** A file-name-safe rendering of the session's name, after its id (empty when nothing usable is left). */
export function slugOf(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .toLowerCase()
    .slice(0, 60)
    .replace(/-+$/, '');
  return slug ? `-${slug}` : '';
}
