// The test suite's check that the books balance on every run it makes: when BENCHLAB_BOOKS_AUDIT
// names a file, each finished run appends one line with its books there (from any process: the
// web-mode back ends the UI tests start, the lab tests' services). The suite's global teardown
// reads the file and fails the run if any run's books are missing or do not balance. Without the
// variable (every user's Benchlab) this does nothing.

import { appendFileSync } from 'node:fs';
import type { RunSummary } from '../../../app/runs/run-summary.ts';

export const BOOKS_AUDIT_ENV = 'BENCHLAB_BOOKS_AUDIT';

export interface AuditedRun {
  runId: number;
  status: string;
  books: RunSummary['books'];
  pid: number;
}

export function auditBooks(runId: number, status: string, summary: RunSummary | null): void {
  const file = process.env[BOOKS_AUDIT_ENV];
  // A run that stored nothing has no books to check.
  if (!file || !summary) return;
  const line: AuditedRun = { runId, status, books: summary.books, pid: process.pid };
  appendFileSync(file, `${JSON.stringify(line)}\n`);
}

/** What is wrong with the audited runs, one line each; empty when every run's books balance. */
export function auditProblems(lines: readonly AuditedRun[]): string[] {
  const problems: string[] = [];
  for (const line of lines) {
    const where = `run ${line.runId} (process ${line.pid}, ${line.status})`;
    if (!line.books) problems.push(`${where}: no books`);
    else if (!line.books.balanced) problems.push(`${where}: ${line.books.scheduled} scheduled ≠ ${line.books.answered} answered + ${line.books.errors} errors + ${line.books.timeouts} timeouts + ${line.books.notSent} not sent + ${line.books.inFlight} in flight`);
    else if (line.books.inFlight > 0 && line.status === 'completed') problems.push(`${where}: completed with ${line.books.inFlight} requests unresolved`);
  }
  return problems;
}
