// The skip-or-fail decision of lab tests: skip with the reason on a machine without the lab, fail
// with it when BENCHLAB_REQUIRE_LAB=1 (CI), run when the lab is there whatever the variable says;
// and the same for the load engine's tests with BENCHLAB_REQUIRE_ENGINE.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { engineSkipOrFail, REQUIRE_ENGINE_ENV, REQUIRE_LAB_ENV, skipOrFail } from './lab-required.ts';

const NO_ROOT = 'the lab needs root';

test('without the lab, a test skips with the reason', () => {
  assert.equal(skipOrFail(NO_ROOT, {}), NO_ROOT);
  assert.equal(skipOrFail(NO_ROOT, { [REQUIRE_LAB_ENV]: '0' }), NO_ROOT);
  assert.equal(skipOrFail(NO_ROOT, { [REQUIRE_LAB_ENV]: '' }), NO_ROOT);
});

test('without the lab where it is required, the test fails with the reason', () => {
  assert.throws(() => skipOrFail(NO_ROOT, { [REQUIRE_LAB_ENV]: '1' }), /the lab is required here \(BENCHLAB_REQUIRE_LAB=1\) but cannot run: the lab needs root/);
});

test('with the lab, a test runs, required or not', () => {
  assert.equal(skipOrFail(null, {}), null);
  assert.equal(skipOrFail(null, { [REQUIRE_LAB_ENV]: '1' }), null);
});

test('without the engine, a test skips with the reason, and fails where the engine is required', () => {
  const NO_GO = 'Go is not installed here';
  assert.equal(engineSkipOrFail(NO_GO, {}), NO_GO);
  assert.equal(engineSkipOrFail(NO_GO, { [REQUIRE_LAB_ENV]: '1' }), NO_GO, 'the lab requirement is not the engine’s');
  assert.throws(() => engineSkipOrFail(NO_GO, { [REQUIRE_ENGINE_ENV]: '1' }), /the load engine is required here \(BENCHLAB_REQUIRE_ENGINE=1\) but cannot run: Go is not installed here/);
  assert.equal(engineSkipOrFail(null, { [REQUIRE_ENGINE_ENV]: '1' }), null);
});
