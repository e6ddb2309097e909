// What the Go builds (build-engine.ts, build-ferretdb.ts) share: the toolchain to build with, and
// the files a binary is built from, which its hash covers.

import { execFile } from 'node:child_process';
import { readdir } from 'node:fs/promises';
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
