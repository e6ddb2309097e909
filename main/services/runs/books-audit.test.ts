// Tests of the suite's books audit: finished runs are appended only when the variable names a file,
// and every way the books can be wrong is reported.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { SummaryAccumulator } from '../../../app/runs/run-summary.ts';
import { auditBooks, auditProblems, BOOKS_AUDIT_ENV, type AuditedRun } from './books-audit.ts';

const books = (change: Partial<NonNullable<AuditedRun['books']>> = {}) => ({ scheduled: 10, answered: 7, errors: 1, timeouts: 1, notSent: 1, inFlight: 0, balanced: true, ...change });

test('runs are appended to the named file, and nothing is written without it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'benchlab-audit-test-'));
  const saved = process.env[BOOKS_AUDIT_ENV];
  try {
    const file = join(dir, 'books.ndjson');
    process.env[BOOKS_AUDIT_ENV] = file;
    const accumulator = new SummaryAccumulator();
    accumulator.add({ scheduled: 3, inFlight: 0, requests: 3, bytes: 30, durationMs: 1000, errors: {}, status: { '2xx': 3 }, histogram: null });
    const summary = accumulator.summary([]);
    auditBooks(7, 'completed', summary);
    auditBooks(8, 'completed', null);
    const lines = readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as AuditedRun);
    assert.equal(lines.length, 1, 'a run that stored nothing is not audited');
    assert.equal(lines[0]!.runId, 7);
    assert.deepEqual(lines[0]!.books, { scheduled: 3, answered: 3, errors: 0, timeouts: 0, notSent: 0, inFlight: 0, balanced: true });
    delete process.env[BOOKS_AUDIT_ENV];
    auditBooks(9, 'completed', summary);
    assert.equal(readFileSync(file, 'utf8').trim().split('\n').length, 1);
  } finally {
    if (saved === undefined) delete process.env[BOOKS_AUDIT_ENV];
    else process.env[BOOKS_AUDIT_ENV] = saved;
    rmSync(dir, { recursive: true, force: true });
  }
});

test('missing, unbalanced and unresolved-but-completed books are problems; a stopped run may leave requests in flight', () => {
  const problems = auditProblems([
    { runId: 1, status: 'completed', books: books(), pid: 1 },
    { runId: 2, status: 'completed', books: null, pid: 1 },
    { runId: 3, status: 'completed', books: books({ answered: 6, balanced: false }), pid: 1 },
    { runId: 4, status: 'completed', books: books({ answered: 5, inFlight: 2 }), pid: 1 },
    { runId: 5, status: 'stopped', books: books({ answered: 5, inFlight: 2 }), pid: 1 },
  ]);
  assert.equal(problems.length, 3);
  assert.match(problems[0]!, /^run 2 .*no books/);
  assert.match(problems[1]!, /^run 3 .*10 scheduled ≠ 6 answered/);
  assert.match(problems[2]!, /^run 4 .*completed with 2 requests unresolved/);
});
