// A run summary from the figures a tool printed (wrk's and ab's text, k6's summary, oha's JSON):
// exactly the figures given, null where the tool printed none, no latency bands (there is no
// histogram to count them from) and no books (the tool kept none of Benchlab's). Failed is the
// non-2xx answers and the errors the tool counted.

import { emptyErrors, emptyNotSent, ERROR_KINDS, sumKinds, type ErrorKind, type RunSummary } from '../../runs/run-summary-schema.ts';

export interface PrintedFigures {
  seconds: number;
  requests: number;
  bytes: number;
  requestsPerSecond: number;
  bytesPerSecond: number | null;
  meanUs: number | null;
  stdDevUs: number | null;
  p50Us: number | null;
  p75Us: number | null;
  p90Us: number | null;
  p99Us: number | null;
  p999Us: number | null;
  maxUs: number | null;
  errors: Partial<Record<ErrorKind, number>>;
  /** Answers by status class where the tool split them. */
  status: Record<string, number>;
  non2xx: number;
  /** The tool's own failed count where it has one that is not non-2xx + errors (k6's http_req_failed). */
  failed?: number;
}

export function printedSummary(figures: PrintedFigures): RunSummary {
  const errors = { ...emptyErrors(), ...figures.errors };
  return {
    seconds: figures.seconds,
    requests: figures.requests,
    bytes: figures.bytes,
    requestsPerSecond: figures.requestsPerSecond,
    bytesPerSecond: figures.bytesPerSecond ?? (figures.seconds > 0 ? figures.bytes / figures.seconds : 0),
    meanUs: figures.meanUs,
    stdDevUs: figures.stdDevUs,
    p50Us: figures.p50Us,
    p75Us: figures.p75Us,
    p90Us: figures.p90Us,
    p99Us: figures.p99Us,
    p999Us: figures.p999Us,
    maxUs: figures.maxUs,
    bands: [],
    errors,
    notSent: emptyNotSent(),
    status: figures.status,
    non2xx: figures.non2xx,
    failed: figures.failed ?? figures.non2xx + sumKinds(errors, ERROR_KINDS),
    timeoutsInLatency: false,
    drainMs: 0,
    books: null,
    steadiness: null,
    phases: null,
  };
}

/** Figures every summary-only import lacks, with the reason. */
export function summaryOnlyAbsent(tool: string): { bands: string; notSent: string } {
  return {
    bands: `no histogram: ${tool} printed percentiles only`,
    notSent: `${tool} does not count requests it could not send`,
  };
}
