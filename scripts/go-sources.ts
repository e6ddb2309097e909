// What the Go builds (build-engine.ts, build-ferretdb.ts) share: the toolchain to build with, the
// files a binary is built from, which its hash covers, the build of one binary into its place, and the line a build script prints.

import { execFile } from 'node:child_process';
import { readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

/** The Go toolchain to build with (`explicit`, else `go` on PATH, else /usr/local/go/bin/go), or null when this machine has none. */
export async function findGo(explicit?: string): Promise<string | null> {
  for (const candidate of explicit ? [explicit] : ['go', '/usr/local/go/bin/go']) {
    const works = await promisify(execFile)(candidate, ['version'], { timeout: 30_000 }).then(
      () => true,
      () => false,
    );
    if (works) return candidate;
  }
  return null;
}

/** What a binary is built from: every non-test Go file (any depth, testdata left out), go.mod and go.sum, relative to the module. */
export async function goSourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && ((entry.name.endsWith('.go') && !entry.name.endsWith('_test.go')) || entry.name === 'go.mod' || entry.name === 'go.sum'))
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
    .filter((path) => !path.split('/').includes('testdata'))
    .sort();
}

/**
 * Builds the module in `sourceDir` into `binary`: beside its place first, then renamed into it, so a
 * process that reads the binary meanwhile (another build, an upload) sees the old file or the new
 * one, never half of one. A failure says `what` did not build, with the last lines Go printed.
 */
export async function goBuildInto(go: string, binary: string, what: string, options: { sourceDir: string; args: string[]; env: Record<string, string>; timeoutMs: number }): Promise<void> {
  const partial = `${binary}.${process.pid}.partial`;
  try {
    await promisify(execFile)(go, [...options.args, '-o', partial, '.'], {
      cwd: options.sourceDir,
      timeout: options.timeoutMs,
      maxBuffer: 16 * 1024 * 1024,
      env: { ...process.env, ...options.env },
    });
  } catch (error) {
    await rm(partial, { force: true });
    const said = String((error as { stderr?: string }).stderr ?? '').trim() || (error as Error).message;
    throw new Error(`${what} did not build:\n${said.split('\n').slice(-15).join('\n')}`, { cause: error });
  }
  await rename(partial, binary);
}

/**
 * A Go build run as its script's command line: one line naming what it made (`made`), how (built
 * in so many seconds, or up to date) and its sources' hash; or why it was not built and what goes
 * without it (`without`); exit 1 when the build failed.
 */
export async function runGoBuildScript<Built extends { status: 'built' | 'up-to-date'; hash: string }>(
  name: string,
  build: () => Promise<Built | { status: 'unavailable'; reason: string }>,
  made: (result: Built) => string,
  without: string,
): Promise<void> {
  const started = Date.now();
  const result = await build().catch((error: unknown) => {
    console.error((error as Error).message);
    process.exit(1);
  });
  if (result.status === 'unavailable') {
    console.log(`${name}: not built: ${(result as { reason: string }).reason}; ${without}`);
    return;
  }
  const built = result as Built;
  const how = built.status === 'built' ? `built in ${((Date.now() - started) / 1000).toFixed(1)} s` : 'up to date (sources unchanged)';
  console.log(`${name}: ${made(built)}, ${how}, sources sha256 ${built.hash.slice(0, 12)}`);
}
