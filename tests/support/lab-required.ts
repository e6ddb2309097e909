// Whether a test that needs the lab (or the load engines) skips or fails when it cannot run here. A
// developer's machine without root or Linux skips those tests; CI sets BENCHLAB_REQUIRE_LAB=1 and
// BENCHLAB_REQUIRE_ENGINE=1 (.ci/run), so a run there can never pass with the real-sshd half of the
// suite, or an engine's, silently skipped.

export const REQUIRE_LAB_ENV = 'BENCHLAB_REQUIRE_LAB';

/** The reason to skip, or null to run; throws with the reason when the environment requires the lab. */
export function skipOrFail(reason: string | null, env: Record<string, string | undefined> = process.env): string | null {
  if (reason === null) return null;
  if (env[REQUIRE_LAB_ENV] === '1') throw new Error(`the lab is required here (${REQUIRE_LAB_ENV}=1) but cannot run: ${reason}`);
  return reason;
}

export const REQUIRE_ENGINE_ENV = 'BENCHLAB_REQUIRE_ENGINE';

/**
 * The same for a test that needs what `npm test` builds for the load (the Go toolchain, the native
 * engine, the agent bundle): the reason to skip, or null to run; throws when the engine is required.
 */
export function engineSkipOrFail(reason: string | null, env: Record<string, string | undefined> = process.env): string | null {
  if (reason === null) return null;
  if (env[REQUIRE_ENGINE_ENV] === '1') throw new Error(`the load engine is required here (${REQUIRE_ENGINE_ENV}=1) but cannot run: ${reason}`);
  return reason;
}
