// Test-run global setup (node --test-global-setup): brings the default two-host lab up for the
// tests that need real hosts, and takes it down afterwards only if this run brought it up. Also
// audits the books of every run the suite makes, in any process: a run whose books are missing or
// do not balance fails the test run at the end.

import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { auditProblems, BOOKS_AUDIT_ENV, type AuditedRun } from '../main/services/runs/books-audit.ts';
import { labDown, labUnsupportedReason, labUp } from './lab/lab.ts';
import { skipOrFail } from './support/lab-required.ts';

let broughtUp = false;
const auditDir = mkdtempSync(join(tmpdir(), 'benchlab-books-'));
const auditFile = join(auditDir, 'books.ndjson');

function checkBooks(): void {
  const lines = existsSync(auditFile)
    ? readFileSync(auditFile, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as AuditedRun)
    : [];
  rmSync(auditDir, { recursive: true, force: true });
  const problems = auditProblems(lines);
  console.log(`books: ${lines.length} runs made by the tests audited, ${problems.length === 0 ? 'every one balanced' : `${problems.length} did not balance`}`);
  // The runner does not show a teardown's error: say which runs, here.
  for (const problem of problems) console.log(`books: ${problem}`);
  if (problems.length > 0) throw new Error(`the books of runs the tests made do not balance:\n${problems.join('\n')}`);
}

export async function globalSetup(): Promise<void> {
  // Test files run in child processes of this one and inherit the variable.
  process.env[BOOKS_AUDIT_ENV] = auditFile;
  // Where the lab is required (BENCHLAB_REQUIRE_LAB=1, CI), its absence fails the run here, at once.
  const unsupported = skipOrFail(labUnsupportedReason());
  if (unsupported) {
    console.log(`lab: not available (${unsupported}); tests that need real hosts will skip`);
    return;
  }
  const result = await labUp();
  broughtUp = !result.alreadyUp;
  console.log(`lab: ${result.alreadyUp ? 'already up' : `up in ${result.seconds.toFixed(2)} s`}`);
}

/** Lab instances that only tests use (pulled links, regenerated keys, plans): always taken down. */
const TEST_ONLY_INSTANCES = ['disruptive', 'rekey', 'loadlink', 'plans', 'wizard', 'engine', 'studies', 'hostfacts', 'verdict', 'cli', 'faults', 'soak', 'soak2', 'soak3', 'revert', 'engines', 'scaleout', 'scaleui', 'logpanel', 'rundeploy', 'planclients', 'enginehosts', 'newconn', 'paused', 'owners', 'ownerplans', 'likewise', 'screens', 'badinput', 'seeds', 'tookeffect', 'deploycard', 'requests', 'think', 'calibrate', 'netem', 'mongo', 'runtime', 'profiles', 'reproduce', 'gcloop', 'asyncload'] as const;
// Not `studyrun`: that instance holds the shipped studies run by hand with `benchlab run`, which
// last many minutes; a test run's teardown took it down under them.

export async function globalTeardown(): Promise<void> {
  try {
    await labTeardown();
  } finally {
    checkBooks();
  }
}

async function labTeardown(): Promise<void> {
  if (labUnsupportedReason()) return;
  for (const instance of TEST_ONLY_INSTANCES) {
    const result = await labDown({ instance });
    if (result.leftovers.length > 0) console.log(`lab ${instance}: left behind: ${result.leftovers.join(', ')}`);
  }
  if (!broughtUp) return;
  const result = await labDown();
  if (result.leftovers.length > 0) console.log(`lab: left behind: ${result.leftovers.join(', ')}`);
}
