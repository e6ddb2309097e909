// The test run of `npm test`: every *.test.ts of the layers and of tests/, in two passes of Node's
// runner. The first runs two files at a time. The second runs, one at a time, the suites that put
// real load on the machine's two cores for minutes or judge a relation the machine's load can
// turn around (a calibration against its steps, a profile's top frames, a fault against the
// agent's own silence limit). Run beside another file, those failed in CI at load 20 and more,
// where each passes alone. Both passes run even when the first fails, so one run shows every
// failure; the exit code is the first pass's failure, else the second's.

import { spawnSync } from 'node:child_process';
import { globSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const PATTERNS = ['app/**/*.test.ts', 'bench/**/*.test.ts', 'main/**/*.test.ts', 'agent/**/*.test.ts', 'tests/**/*.test.ts'];

/** The suites run alone, each for the reason beside it. */
const RUN_ALONE: Record<string, string> = {
  'tests/lab/studies.test.ts': 'the five shipped studies at their own rates, for many minutes',
  'tests/soak/soak.test.ts': 'faults timed against the agent’s heartbeat limit and the live run’s silence rule',
  'tests/lab/calibration.test.ts': 'a capacity measured at one moment, judged against steps run at the next',
  'tests/lab/profiles.test.ts': 'a profile’s top frames, which a busy machine fills with the scheduler’s',
  'tests/lab/server-runtime.test.ts': 'the server threads’ waits at ten times the load against one, which other suites’ load swamps',
};

/**
 * Node's compile cache for every process the tests start (test files, CLIs, child back ends,
 * web servers), which inherit it: each loads hundreds of TypeScript modules, and with the cache
 * their stripped and compiled code is read from disk after the first load instead of made again.
 */
const COMPILE_CACHE = process.env.NODE_COMPILE_CACHE || join(tmpdir(), 'benchlab-test-compile-cache');

function runPass(files: string[], concurrency: number): number {
  if (files.length === 0) return 0;
  const args = ['--test', `--test-concurrency=${concurrency}`, '--test-global-setup=tests/global-setup.ts', ...files];
  return spawnSync(process.execPath, args, { stdio: 'inherit', env: { ...process.env, NODE_COMPILE_CACHE: COMPILE_CACHE } }).status ?? 1;
}

const files = globSync(PATTERNS).sort();
const missing = Object.keys(RUN_ALONE).filter((file) => !files.includes(file));
if (missing.length > 0) {
  // A suite renamed or moved out of the list would otherwise run beside the others without a word.
  console.error(`scripts/run-tests.ts: RUN_ALONE names files that are not there: ${missing.join(', ')}`);
  process.exit(1);
}
const shared = files.filter((file) => !(file in RUN_ALONE));
const alone = files.filter((file) => file in RUN_ALONE);
const first = runPass(shared, 2);
console.log(`\nthe suites that run alone, one at a time: ${alone.join(', ')}\n`);
const second = runPass(alone, 1);
process.exit(first !== 0 ? first : second);
