// `npm run build:ferretdb`: builds the private MongoDB-protocol database Benchlab ships to server
// hosts without a mongod (agent/ferretdb: FerretDB v1 embedded on its SQLite backend, with the
// seeding and facts commands) into one static binary, out/ferretdb/benchlab-ferretdb-linux-amd64
// (CGO_ENABLED=0, -trimpath, without FerretDB's PostgreSQL backend), as the native engine is built:
// on this machine, skipped while the hash of its sources (go.mod, go.sum, its Go files and how it
// is built) is the one in out/ferretdb/ferretdb-hash.txt. Go's own build cache keeps a rebuild
// after a fresh checkout short; a cold one compiles FerretDB and SQLite in Go, minutes on two
// cores. Deploys build it on first use (main/services/templates/ferretdb-binary.ts).

import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { FERRETDB_ARCH, ferretdbFileName } from '../app/templates/template-mongo.ts';
import { stepInputsHash } from '../main/services/templates/local-build.ts';
import { findGo, goBuildInto, goSourceFiles, runGoBuildScript } from './go-sources.ts';

const REPO_ROOT = resolve(import.meta.dirname, '..');
export const FERRETDB_SOURCE_DIR = join(REPO_ROOT, 'agent', 'ferretdb');
export const FERRETDB_OUT_DIR = join(REPO_ROOT, 'out', 'ferretdb');
const HASH_FILE = 'ferretdb-hash.txt';
const BUILD_TIMEOUT_MS = 30 * 60_000;
/** Static, reproducible, stripped; FerretDB's PostgreSQL backend left out (SQLite serves). */
const GO_BUILD_ARGS = ['build', '-trimpath', '-buildvcs=false', '-tags=ferretdb_no_postgresql', '-ldflags=-s -w'];
const GO_BUILD_ENV = { CGO_ENABLED: '0', GOOS: 'linux', GOARCH: FERRETDB_ARCH, GOTOOLCHAIN: 'local' };

export type FerretdbBuild = { status: 'built' | 'up-to-date'; hash: string; binary: string } | { status: 'unavailable'; reason: string };

/** The hash of the sources and of how they are built; null without sources. */
export async function ferretdbSourceHash(sourceDir = FERRETDB_SOURCE_DIR): Promise<string | null> {
  if (!existsSync(join(sourceDir, 'go.mod'))) return null;
  const step = {
    name: 'ferretdb',
    command: ['env', ...Object.entries(GO_BUILD_ENV).map(([name, value]) => `${name}=${value}`), 'go', ...GO_BUILD_ARGS],
    artifacts: [ferretdbFileName()],
    inputs: await goSourceFiles(sourceDir),
    timeoutSeconds: BUILD_TIMEOUT_MS / 1000,
  };
  return stepInputsHash(sourceDir, step);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * One build at a time across processes (test files and deploys building at once would each
 * compile FerretDB): a lock folder made atomically beside the binary; a waiter re-reads the stamp
 * once it is gone. A lock whose process is gone, or older than the build's timeout, is taken over.
 */
async function withBuildLock<T>(outDir: string, work: () => Promise<T>): Promise<T> {
  await mkdir(outDir, { recursive: true });
  const lock = join(outDir, '.building');
  for (;;) {
    try {
      await mkdir(lock);
      await writeFile(join(lock, 'pid'), `${process.pid}\n`);
      break;
    } catch {
      const since = await stat(lock).then(
        (found) => Date.now() - found.mtimeMs,
        () => 0,
      );
      const holder = Number((await readFile(join(lock, 'pid'), 'utf8').catch(() => '')).trim());
      if (since > BUILD_TIMEOUT_MS || (holder > 0 && !alive(holder))) await rm(lock, { recursive: true, force: true });
      else await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
  try {
    return await work();
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}

/** Builds the binary unless it exists and was built from these very sources. */
export async function buildFerretdb(options: { sourceDir?: string; outDir?: string } = {}): Promise<FerretdbBuild> {
  const outDir = options.outDir ?? FERRETDB_OUT_DIR;
  const upToDate = await currentBuild(options.sourceDir ?? FERRETDB_SOURCE_DIR, outDir);
  if (upToDate) return upToDate;
  return withBuildLock(outDir, () => buildUnlocked(options.sourceDir ?? FERRETDB_SOURCE_DIR, outDir));
}

/** The build as it stands when it is up to date (or has no sources); null when one is needed. */
async function currentBuild(sourceDir: string, outDir: string): Promise<FerretdbBuild | null> {
  const hash = await ferretdbSourceHash(sourceDir);
  if (hash === null) return { status: 'unavailable', reason: `its sources are missing (${join(sourceDir, 'go.mod')})` };
  const binary = join(outDir, ferretdbFileName());
  const stamp = (await readFile(join(outDir, HASH_FILE), 'utf8').catch(() => '')).trim();
  return stamp === hash && existsSync(binary) ? { status: 'up-to-date', hash, binary } : null;
}

async function buildUnlocked(sourceDir: string, outDir: string): Promise<FerretdbBuild> {
  // Another process may have built it while this one waited for the lock.
  const built = await currentBuild(sourceDir, outDir);
  if (built) return built;
  const hash = (await ferretdbSourceHash(sourceDir))!;
  const binary = join(outDir, ferretdbFileName());
  const go = await findGo();
  if (!go) return { status: 'unavailable', reason: 'Go is not installed on this machine (no go on PATH nor /usr/local/go/bin/go)' };
  await mkdir(outDir, { recursive: true });
  await rm(join(outDir, HASH_FILE), { force: true });
  await goBuildInto(go, binary, `FerretDB for linux/${FERRETDB_ARCH}`, { sourceDir, args: GO_BUILD_ARGS, env: GO_BUILD_ENV, timeoutMs: BUILD_TIMEOUT_MS });
  await writeFile(join(outDir, HASH_FILE), `${hash}\n`);
  return { status: 'built', hash, binary };
}

if (import.meta.main) {
  await runGoBuildScript('FerretDB', buildFerretdb, (result) => result.binary, "deploys with the database mongo need the host's own mongod");
}
