// The native engine's own Go tests (agent/engine/*_test.go) as part of `npm test`: runs
// `go test ./...` here and fails with its output when they fail. Skips when no Go toolchain is here,
// unless BENCHLAB_REQUIRE_ENGINE=1 (then a missing toolchain fails).

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { test } from 'node:test';
import { GO, skipWithoutGo } from '../../tests/support/go-toolchain.ts';

const skip = skipWithoutGo('no Go toolchain here to run the engine’s tests');

test('the native engine’s Go tests pass (go test ./... in agent/engine)', { skip, timeout: 600_000 }, async () => {
  const go = GO;
  assert.ok(go, 'BENCHLAB_REQUIRE_ENGINE=1 but no Go toolchain is here');
  const result = await new Promise<{ code: number; output: string }>((resolve) => {
    execFile(go, ['test', '-count=1', './...'], { cwd: import.meta.dirname, env: { ...process.env, CGO_ENABLED: '0' }, maxBuffer: 64 * 2 ** 20 }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` }),
    );
  });
  assert.equal(result.code, 0, `go test failed:\n${result.output}`);
});
