// The figures a study's seed published, on its own hardware (resources/studies/published/<id>.yaml):
// per server, step and endpoint, every figure the seed's tool printed, with the seed's own name for
// the server and, where the study runs it, the template that stands for it. They are a reference shown
// beside Benchlab's results, marked as the seed's and never part of a verdict. Pure: schema, parsing
// (every problem with its line) and the matching of a published row to a configuration.

import { LineCounter, parseDocument } from 'yaml';
import { z } from 'zod';
import { knobsText } from '../sessions/configuration-key.ts';
import { StudyId } from './plan-file.ts';

/** The figures a seed may have printed, in one unit each (ms, req/s, KB/s, MB, %), named as Benchlab names its own. */
export const PUBLISHED_FIGURES = [
  'requests',
  'failed',
  'timeouts',
  'elapsedS',
  'requestsPerSecond',
  'transferKBps',
  'meanMs',
  'stdDevMs',
  'minMs',
  'p50Ms',
  'p66Ms',
  'p75Ms',
  'p80Ms',
  'p90Ms',
  'p95Ms',
  'p98Ms',
  'p99Ms',
  'maxMs',
  'connectMeanMs',
  'connectMedianMs',
  'waitingMeanMs',
  'waitingMedianMs',
  'processingMeanMs',
  'processingMedianMs',
  'under800',
  'from800To1200',
  'over1200',
  'availabilityPct',
  'concurrency',
  'memoryMb',
] as const;
export type PublishedFigure = (typeof PUBLISHED_FIGURES)[number];

/** How each figure is headed in a table. */
export const PUBLISHED_FIGURE_LABELS: Record<PublishedFigure, string> = {
  requests: 'requests',
  failed: 'failed',
  timeouts: 'timeouts',
  elapsedS: 'time (s)',
  requestsPerSecond: 'req/s',
  transferKBps: 'KB/s',
  meanMs: 'mean (ms)',
  stdDevMs: 'std dev (ms)',
  minMs: 'min (ms)',
  p50Ms: 'p50 (ms)',
  p66Ms: 'p66 (ms)',
  p75Ms: 'p75 (ms)',
  p80Ms: 'p80 (ms)',
  p90Ms: 'p90 (ms)',
  p95Ms: 'p95 (ms)',
  p98Ms: 'p98 (ms)',
  p99Ms: 'p99 (ms)',
  maxMs: 'max (ms)',
  connectMeanMs: 'connect mean (ms)',
  connectMedianMs: 'connect median (ms)',
  waitingMeanMs: 'waiting mean (ms)',
  waitingMedianMs: 'waiting median (ms)',
  processingMeanMs: 'processing mean (ms)',
  processingMedianMs: 'processing median (ms)',
  under800: '< 800 ms',
  from800To1200: '800–1200 ms',
  over1200: '> 1200 ms',
  availabilityPct: 'availability (%)',
  concurrency: 'concurrency',
  memoryMb: 'memory (MB)',
};

const TemplateRef = z.union([
  z.string().regex(/^[^:\s]+:[^:\s]+$/, 'must be "template:variant"'),
  z
    .object({
      template: z.string().min(1),
      variant: z.string().min(1),
      knobs: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).default({}),
    })
    .strict(),
]);

export const PublishedRow = z
  .object({
    /** The seed's own name for the server (its version, runtime, settings). */
    label: z.string().min(1),
    /** The study's template that stands for it; null when the study runs nothing like it. */
    template: TemplateRef.nullable(),
    /** The path the seed requested, when its study has several. */
    endpoint: z.string().startsWith('/').optional(),
    /** The name of the study's request that stands for that endpoint (its `profile.requests`), when it names them. */
    request: z.string().min(1).optional(),
    /** The seed's step in its own words ("1000 connections", "ab -n 10000 -c 100"). */
    step: z.string().min(1),
    /** The step's number, for ordering and matching a sweep (connections, rate or request count). */
    stepValue: z.number().positive().optional(),
    figures: z.partialRecord(z.enum(PUBLISHED_FIGURES), z.number().min(0)),
  })
  .strict();
export type PublishedRow = z.output<typeof PublishedRow>;

export const PublishedResults = z
  .object({
    study: StudyId,
    /** The seed's load tool, with its version where the seed gave it. */
    tool: z.string().min(1),
    /** The seed's hardware and setting, in a line. */
    where: z.string().min(1),
    note: z.string().optional(),
    results: z.array(PublishedRow).min(1),
  })
  .strict();
export type PublishedResults = z.output<typeof PublishedResults>;

/** A published row's template as a study target. */
export function publishedTarget(row: PublishedRow): { templateId: string; variant: string; knobs: Record<string, string | number | boolean> } | null {
  if (row.template === null) return null;
  if (typeof row.template === 'string') {
    const [templateId, variant] = row.template.split(':') as [string, string];
    return { templateId, variant, knobs: {} };
  }
  return { templateId: row.template.template, variant: row.template.variant, knobs: row.template.knobs };
}

/**
 * Whether a published row stands for a configuration Benchlab ran: the same template and variant,
 * and every knob the row names set alike (knobs it does not name may be anything).
 */
export function publishedRowMatches(row: PublishedRow, config: { templateId: string; variant: string | null; knobs: Readonly<Record<string, unknown>> }): boolean {
  const target = publishedTarget(row);
  if (!target || target.templateId !== config.templateId || target.variant !== config.variant) return false;
  return Object.entries(target.knobs).every(([knob, value]) => config.knobs[knob] === value);
}

/** Whether a session sent the request a published row was measured with: its name, else its path; a session that recorded no request may have. */
function sameEndpoint(row: PublishedRow, request: { name: string | null; path: string } | null | undefined): boolean {
  if (!request) return true;
  if (row.request !== undefined && request.name !== null) return request.name === row.request;
  return row.endpoint === undefined || request.path === row.endpoint;
}

/**
 * The compared sessions that ran what a published row stands for: each session's setups as Compare
 * describes them (template, variant, and its knobs in words), matched on template and variant and
 * every knob the row names, and on the row's endpoint where the session recorded its request.
 */
export function sessionsRunning(
  row: PublishedRow,
  sessions: ReadonlyArray<{ setups?: ReadonlyArray<{ template: string; variant: string; knobs: string }>; request?: { name: string | null; path: string } | null | undefined }>,
): number[] {
  const target = publishedTarget(row);
  if (!target) return [];
  const wanted = Object.entries(target.knobs).map(([knob, value]) => knobsText({ [knob]: value }));
  return sessions.flatMap((session, index) =>
    sameEndpoint(row, session.request) &&
    (session.setups ?? []).some((setup) => setup.template === target.templateId && setup.variant === target.variant && wanted.every((knob) => setup.knobs.split(', ').includes(knob)))
      ? [index]
      : [],
  );
}

/** The figures any row of these results has, in PUBLISHED_FIGURES order: a table's columns. */
export function publishedColumns(rows: readonly PublishedRow[]): PublishedFigure[] {
  return PUBLISHED_FIGURES.filter((figure) => rows.some((row) => row.figures[figure] !== undefined));
}

/** One published-results file → the results, or every problem in one line (`path: message (line n)`). */
export function parsePublishedResults(text: string): PublishedResults | string {
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  if (document.errors.length > 0) {
    const error = document.errors[0]!;
    return `not YAML: ${error.message.split('\n')[0]} (line ${lines.linePos(error.pos[0]).line})`;
  }
  const parsed = PublishedResults.safeParse(document.toJS());
  if (parsed.success) return parsed.data;
  return parsed.error.issues
    .map((issue) => {
      const node = document.getIn(issue.path as (string | number)[], true) as { range?: [number, number, number] } | undefined;
      const at = node && typeof node === 'object' && node.range ? ` (line ${lines.linePos(node.range[0]).line})` : '';
      return `${issue.path.join('.') || 'file'}: ${issue.message}${at}`;
    })
    .join('; ');
}
