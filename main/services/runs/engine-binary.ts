// Finds the native engine binary this Benchlab uploads to a client host of a given architecture:
// in BENCHLAB_ENGINE_DIR when set, else the packaged app's resources/engine folder, else out/engine
// in a checkout, built there (or rebuilt when its sources changed) by scripts/build-engine.ts first,
// as the agent bundle is built on first use. Read with its sha256, which names it on the host
// (`benchlab-engine-<first 12 hex>`), so a host gets a new upload exactly when the binary changed.

import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { debugNote } from '../logger.ts';
import { nativeEngineFileName, type NativeEngineArch } from '../../../app/runs/engine-choice.ts';
import { messageOf } from '../../../app/common/errors.ts';

const REPO_ROOT = resolve(import.meta.dirname, '..', '..', '..');
const BUILDER = join(REPO_ROOT, 'scripts', 'build-engine.ts');

export interface EngineBinary {
  arch: NativeEngineArch;
  file: string;
  bytes: Buffer;
  sha256: string;
  /** Its name on a host, beside the agent: changes with its content. */
  remoteName: string;
}

export type EngineBinaryLookup = { ok: true; binary: EngineBinary } | { ok: false; reason: string };

type BuildResult = { status: 'built' | 'up-to-date'; hash: string } | { status: 'unavailable'; reason: string };
interface Builder {
  buildEngine: () => Promise<BuildResult>;
  engineSourceHash: () => Promise<string | null>;
}

/** One build at a time in this process: two runs starting at once wait for the same build. */
let building: Promise<BuildResult> | null = null;
/** The sources that last failed to build, and how: not tried again on every run until they change. */
let failed: { hash: string | null; error: unknown } | null = null;

/** Builds out/engine in a checkout unless it is up to date; null in a packaged app (no builder). */
async function buildInCheckout(): Promise<BuildResult | null> {
  if (!existsSync(BUILDER)) return null;
  building ??= (async () => {
    const builder = (await import(BUILDER)) as Builder;
    const hash = await builder.engineSourceHash();
    if (failed && failed.hash === hash) throw failed.error;
    try {
      return await builder.buildEngine();
    } catch (error) {
      failed = { hash, error };
      throw error;
    }
  })().finally(() => {
    building = null;
  });
  return building;
}

/** The folder the binaries are taken from, or why there is none. */
async function engineDir(): Promise<{ dir: string } | { reason: string }> {
  if (process.env.BENCHLAB_ENGINE_DIR) return { dir: resolve(process.env.BENCHLAB_ENGINE_DIR) };
  const resourcesPath = (process as { resourcesPath?: string }).resourcesPath;
  if (resourcesPath) return { dir: join(resourcesPath, 'engine') };
  const outDir = join(REPO_ROOT, 'out', 'engine');
  try {
    const built = await buildInCheckout();
    // Without Go, binaries built earlier still serve; without those the reason is Go's absence.
    if (built?.status === 'unavailable' && !existsSync(join(outDir, nativeEngineFileName('amd64')))) return { reason: `its binary is not built: ${built.reason}` };
  } catch (error) {
    debugNote(`the native engine did not build: ${messageOf(error)}`);
    return { reason: 'its binary does not build on this machine (npm run build:engine shows why)' };
  }
  return { dir: outDir };
}

/** The binary for `arch`, or why this Benchlab has none. */
export async function engineBinary(arch: NativeEngineArch): Promise<EngineBinaryLookup> {
  const found = await engineDir();
  if ('reason' in found) return { ok: false, reason: found.reason };
  const file = join(found.dir, nativeEngineFileName(arch));
  const bytes = await readFile(file).catch(() => null);
  if (!bytes) return { ok: false, reason: `this Benchlab has no native engine for linux/${arch} (${file} is missing; npm run build:engine)` };
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  return { ok: true, binary: { arch, file, bytes, sha256, remoteName: `benchlab-engine-${sha256.slice(0, 12)}` } };
}
