// `npm run build:engine`: builds the native load engine (agent/engine, Go) into static binaries for
// the client hosts it supports, out/engine/benchlab-engine-linux-{amd64,arm64} (CGO_ENABLED=0,
// -trimpath), once its generated second_gen.go is written (scripts/generate-engine-second.ts); as
// the JVM templates are built: on this machine, skipped while the hash of its sources (the same
// stepInputsHash the template builds use, over the Go files, go.mod and go.sum) is the one in
// out/engine/engine-hash.txt. Without Go it says so in one line and exits 0: the engine is then
// unavailable and runs on `auto` use the Node engine.

import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { NATIVE_ENGINE_ARCHS, nativeEngineFileName, type NativeEngineArch } from '../app/runs/engine-choice.ts';
import { stepInputsHash } from '../main/services/templates/local-build.ts';
import { writeEngineSecond } from './generate-engine-second.ts';
import { findGo, goBuildInto, goSourceFiles, runGoBuildScript } from './go-sources.ts';

const REPO_ROOT = resolve(import.meta.dirname, '..');
export const ENGINE_SOURCE_DIR = join(REPO_ROOT, 'agent', 'engine');
export const ENGINE_OUT_DIR = join(REPO_ROOT, 'out', 'engine');
export const ENGINE_HASH_FILE = 'engine-hash.txt';
/** The client architectures the engine is built for (Go's names: `uname -m` x86_64 is amd64, aarch64 is arm64). */
export const ENGINE_ARCHS = NATIVE_ENGINE_ARCHS;
export type EngineArch = NativeEngineArch;
/** A Go build of two architectures from a cold cache takes about a minute on two cores. */
const BUILD_TIMEOUT_MS = 10 * 60_000;
/** Static (no cgo), without local paths or VCS stamps, symbols stripped: the same bytes from the same sources. */
const GO_BUILD_ARGS = ['build', '-trimpath', '-buildvcs=false', '-ldflags=-s -w'];
const GO_BUILD_ENV = { CGO_ENABLED: '0', GOOS: 'linux', GOTOOLCHAIN: 'local' };

export type EngineBuild =
  | { status: 'built' | 'up-to-date'; hash: string; binaries: Record<EngineArch, string> }
  | { status: 'unavailable'; reason: string };

export interface EngineBuildOptions {
  sourceDir?: string;
  outDir?: string;
  /** The go command; default: `go` on PATH, else /usr/local/go/bin/go. */
  go?: string;
}

function buildStep(sources: string[]) {
  return {
    name: 'native engine',
    // How it is built is part of the hash, as a template step's command is: a new flag rebuilds.
    command: ['env', ...Object.entries(GO_BUILD_ENV).map(([name, value]) => `${name}=${value}`), 'go', ...GO_BUILD_ARGS],
    artifacts: ENGINE_ARCHS.map(nativeEngineFileName),
    inputs: sources,
    timeoutSeconds: BUILD_TIMEOUT_MS / 1000,
  };
}

/** The hash of the engine's sources (and of how it is built); null when there are none. */
export async function engineSourceHash(sourceDir = ENGINE_SOURCE_DIR): Promise<string | null> {
  if (!existsSync(join(sourceDir, 'go.mod'))) return null;
  return stepInputsHash(sourceDir, buildStep(await goSourceFiles(sourceDir)));
}

/** Builds the binaries unless they exist and were built from these very sources. */
export async function buildEngine(options: EngineBuildOptions = {}): Promise<EngineBuild> {
  const sourceDir = options.sourceDir ?? ENGINE_SOURCE_DIR;
  const outDir = options.outDir ?? ENGINE_OUT_DIR;
  // The kinds a second is counted by come from the TypeScript definition (second_gen.go).
  if (sourceDir === ENGINE_SOURCE_DIR) await writeEngineSecond();
  const hash = await engineSourceHash(sourceDir);
  if (hash === null) return { status: 'unavailable', reason: `the native engine's sources are missing (${join(sourceDir, 'go.mod')})` };
  const binaries = Object.fromEntries(ENGINE_ARCHS.map((arch) => [arch, join(outDir, nativeEngineFileName(arch))])) as Record<EngineArch, string>;
  const stamp = (await readFile(join(outDir, ENGINE_HASH_FILE), 'utf8').catch(() => '')).trim();
  if (stamp === hash && Object.values(binaries).every((file) => existsSync(file))) return { status: 'up-to-date', hash, binaries };

  const go = await findGo(options.go);
  if (!go) return { status: 'unavailable', reason: 'Go is not installed on this machine (no go on PATH nor /usr/local/go/bin/go)' };
  await mkdir(outDir, { recursive: true });
  // The hash goes first, so binaries of other sources are never taken for these while they are replaced.
  await rm(join(outDir, ENGINE_HASH_FILE), { force: true });
  for (const arch of ENGINE_ARCHS) {
    await goBuildInto(go, binaries[arch], `the native engine for linux/${arch}`, { sourceDir, args: GO_BUILD_ARGS, env: { ...GO_BUILD_ENV, GOARCH: arch }, timeoutMs: BUILD_TIMEOUT_MS });
  }
  await writeFile(join(outDir, ENGINE_HASH_FILE), `${hash}\n`);
  return { status: 'built', hash, binaries };
}

if (import.meta.main) {
  await runGoBuildScript('native engine', buildEngine, () => `${ENGINE_ARCHS.map((arch) => nativeEngineFileName(arch)).join(', ')} in ${ENGINE_OUT_DIR}`, 'runs on engine "auto" use the Node engine');
}
