// Whether a test that needs the lab skips or fails when the lab cannot run here. A developer's
// machine without root or Linux skips those tests; CI sets BENCHLAB_REQUIRE_LAB=1 (.ci/run), so a
// run there can never pass with the real-sshd half of the suite silently skipped.

export const REQUIRE_LAB_ENV = 'BENCHLAB_REQUIRE_LAB';

/** The reason to skip, or null to run; throws with the reason when the environment requires the lab. */
export function skipOrFail(reason: string | null, env: Record<string, string | undefined> = process.env): string | null {
  if (reason === null) return null;
  if (env[REQUIRE_LAB_ENV] === '1') throw new Error(`the lab is required here (${REQUIRE_LAB_ENV}=1) but cannot run: ${reason}`);
  return reason;
}
