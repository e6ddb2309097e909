// The two load engines the conformance suite runs every behavioural case on: the agent's own Node
// threads and the native engine binary (out/engine/benchlab-engine-linux-<arch>), which the agent
// starts when its config says so. The native half skips with its reason when the binary is not
// built, and fails instead when BENCHLAB_REQUIRE_ENGINE=1 (npm test builds it first): a missing
// binary must never pass for a conforming engine.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, test } from 'node:test';
import type { LoadAgentConfig, LoadEngineKind } from '../../app/runs/agent-protocol.ts';

const GO_ARCH: Partial<Record<NodeJS.Architecture, string>> = { x64: 'amd64', arm64: 'arm64' };

/** Where the native engine for this machine is built (`npm run build:engine`). */
export const ENGINE_BINARY = resolve(import.meta.dirname, '..', '..', 'out', 'engine', `benchlab-engine-linux-${GO_ARCH[process.arch] ?? process.arch}`);

export interface Engine {
  kind: LoadEngineKind;
  /** The config as Benchlab sends it for this engine. */
  configure(config: LoadAgentConfig): LoadAgentConfig;
  /** Why this engine's cases do not run here, or false. */
  skip: string | false;
  /** Set when the engine is required but absent: its suite fails on this. */
  missing: string | null;
}

function nativeEngine(): Engine {
  const built = existsSync(ENGINE_BINARY);
  const required = process.env.BENCHLAB_REQUIRE_ENGINE === '1';
  const absent = `the native engine is not built at ${ENGINE_BINARY} (npm run build:engine)`;
  return {
    kind: 'native',
    configure: (config) => ({ ...config, engine: { kind: 'native', path: ENGINE_BINARY } }),
    skip: built || required ? false : absent,
    missing: built ? null : absent,
  };
}

export const ENGINES: readonly Engine[] = [{ kind: 'node', configure: (config) => config, skip: false, missing: null }, nativeEngine()];

/** One `describe` per engine, titled `<title> [<kind> engine]`, running `cases` with that engine. */
export function describeEachEngine(title: string, cases: (engine: Engine) => void): void {
  for (const engine of ENGINES) {
    describe(`${title} [${engine.kind} engine]`, { skip: engine.skip }, () => {
      if (engine.missing) {
        const missing = engine.missing;
        test('the engine binary is there', () => assert.fail(missing));
      }
      cases(engine);
    });
  }
}
