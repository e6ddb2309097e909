// The Go toolchain for tests that build or test the native engine here, and their skip: a test
// skips when none is here, unless BENCHLAB_REQUIRE_ENGINE=1 (then it runs and fails on the missing
// toolchain).

import { execFileSync } from 'node:child_process';

export const GO = ['/usr/local/go/bin/go', 'go'].find((candidate) => {
  try {
    execFileSync(candidate, ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
});

/** The test's skip: `why` when there is no Go here and the engine is not required, else false. */
export function skipWithoutGo(why: string): string | false {
  return GO === undefined && process.env.BENCHLAB_REQUIRE_ENGINE !== '1' ? why : false;
}
