// The native engine's own Go tests (agent/engine/*_test.go) as part of `npm test`: runs
// `go test ./...` here and fails with its output when they fail. Skips when no Go toolchain is here,
// unless BENCHLAB_REQUIRE_ENGINE=1 (then a missing toolchain fails).

import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { test } from 'node:test';

const GO = ['/usr/local/go/bin/go', 'go'].find((candidate) => {
  try {
    execFileSync(candidate, ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
});
const skip = GO === undefined && process.env.BENCHLAB_REQUIRE_ENGINE !== '1' ? 'no Go toolchain here to run the engine’s tests' : false;

test('the native engine’s Go tests pass (go test ./... in agent/engine)', { skip, timeout: 600_000 }, async () => {
  assert.ok(GO, 'BENCHLAB_REQUIRE_ENGINE=1 but no Go toolchain is here');
  const result = await new Promise<{ code: number; output: string }>((resolve) => {
    execFile(GO, ['test', '-count=1', './...'], { cwd: import.meta.dirname, env: { ...process.env, CGO_ENABLED: '0' }, maxBuffer: 64 * 2 ** 20 }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` }),
    );
  });
  assert.equal(result.code, 0, `go test failed:\n${result.output}`);
});
