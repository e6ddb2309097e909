// A run summary from the figures a tool printed (wrk's and ab's text, k6's summary, oha's JSON):
// exactly the figures given, null where the tool printed none, no latency bands (there is no
// histogram to count them from) and no books (the tool kept none of Benchlab's). Failed is the
// non-2xx answers and the errors the tool counted.

import type { LatencyFigures } from '../../common/hdr.ts';
import type { ImportedResult, ImportedResultBase } from './imported-result.ts';
import { emptyErrors, emptyNotSent, ERROR_KINDS, sumKinds, type ErrorKind, type RunSummary } from '../../runs/run-summary-schema.ts';

/**
 * What a tool printed. Left out means the tool printed none of it: no bytes (0), no deviation or
 * p99.9 (null), no errors or status classes, no non-2xx answers; the rates default to the totals
 * over the run's seconds.
 */
export interface PrintedFigures extends Omit<LatencyFigures, 'stdDevUs' | 'p999Us'> {
  seconds: number;
  requests: number;
  bytes?: number;
  requestsPerSecond?: number;
  bytesPerSecond?: number | null;
  stdDevUs?: number | null;
  p999Us?: number | null;
  errors?: Partial<Record<ErrorKind, number>>;
  /** Answers by status class where the tool split them. */
  status?: Record<string, number>;
  non2xx?: number;
  /** The tool's own failed count where it has one that is not non-2xx + errors (k6's http_req_failed). */
  failed?: number;
}

/** p50 to p99 from a tool's percentile reader (`at(50)` is its median). */
export function percentilesAt(at: (percent: number) => number | null): Pick<LatencyFigures, 'p50Us' | 'p75Us' | 'p90Us' | 'p99Us'> {
  return { p50Us: at(50), p75Us: at(75), p90Us: at(90), p99Us: at(99) };
}

export function printedSummary(figures: PrintedFigures): RunSummary {
  const errors = { ...emptyErrors(), ...figures.errors };
  const { seconds, requests, bytes = 0, non2xx = 0 } = figures;
  const perSecond = (total: number) => (seconds > 0 ? total / seconds : 0);
  return {
    seconds,
    requests,
    bytes,
    requestsPerSecond: figures.requestsPerSecond ?? perSecond(requests),
    bytesPerSecond: figures.bytesPerSecond ?? perSecond(bytes),
    meanUs: figures.meanUs,
    stdDevUs: figures.stdDevUs ?? null,
    p50Us: figures.p50Us,
    p75Us: figures.p75Us,
    p90Us: figures.p90Us,
    p99Us: figures.p99Us,
    p999Us: figures.p999Us ?? null,
    maxUs: figures.maxUs,
    bands: [],
    errors,
    notSent: emptyNotSent(),
    status: figures.status ?? {},
    non2xx,
    failed: figures.failed ?? non2xx + sumKinds(errors, ERROR_KINDS),
    timeoutsInLatency: false,
    drainMs: 0,
    books: null,
    steadiness: null,
    phases: null,
  };
}

/** A summary-only result: no clock times and no load where the file gives none. */
export function printedResult(result: Omit<ImportedResultBase, 'startedAt' | 'endedAt' | 'load'> & Partial<ImportedResultBase> & { summary: RunSummary }): ImportedResult {
  return { startedAt: null, endedAt: null, load: null, ...result, kind: 'summary' };
}

/** Figures every summary-only import lacks, with the reason. */
export function summaryOnlyAbsent(tool: string): { bands: string; notSent: string } {
  return {
    bands: `no histogram: ${tool} printed percentiles only`,
    notSent: `${tool} does not count requests it could not send`,
  };
}
