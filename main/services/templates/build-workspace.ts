// Where a template with build steps is built: a copy of its folder under the data dir, never the
// folder itself, which ships read-only inside a packaged app (an AppImage is a read-only mount) and
// must not collect build output. The copy is keyed by the folder's content: while it is unchanged
// the copy, its build output and the steps' input stamps are reused (incremental Maven builds);
// a changed template starts again from a clean copy, so no file it dropped can linger in a build.

import { createHash } from 'node:crypto';
import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { Manifest } from '../../../app/templates/templates.ts';
import { runBuild, type BuildOptions } from './local-build.ts';

const SOURCE_STAMP = '.benchlab-source-sha256';

/** Top-level folders the build writes (the first part of each artifact path): not part of the source. */
function outputFolders(manifest: Manifest): Set<string> {
  return new Set(manifest.build.flatMap((step) => step.artifacts.map((artifact) => artifact.split('/')[0]!)).filter((first) => first !== ''));
}

async function sourceFiles(dir: string, skip: Set<string>, under = ''): Promise<string[]> {
  const entries = await readdir(join(dir, under), { withFileTypes: true });
  const files: string[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const path = under ? `${under}/${entry.name}` : entry.name;
    if (!under && (skip.has(entry.name) || entry.name === SOURCE_STAMP)) continue;
    if (entry.isDirectory()) files.push(...(await sourceFiles(dir, skip, path)));
    else if (entry.isFile()) files.push(path);
  }
  return files;
}

/** sha256 over every source file's path and bytes (build output folders left out). */
export async function templateSourceHash(dir: string, manifest: Manifest): Promise<string> {
  const hash = createHash('sha256');
  for (const file of await sourceFiles(dir, outputFolders(manifest))) {
    const bytes = await readFile(join(dir, file));
    hash.update(`\0${file}\0${bytes.length}\0`).update(bytes);
  }
  return hash.digest('hex');
}

/** The build copy of a template under `root`, made fresh if the template's sources changed. */
export async function prepareWorkspace(templateDir: string, manifest: Manifest, root: string): Promise<string> {
  const workspace = join(root, manifest.id);
  const hash = await templateSourceHash(templateDir, manifest);
  if ((await readFile(join(workspace, SOURCE_STAMP), 'utf8').catch(() => '')) === hash) return workspace;
  await rm(workspace, { recursive: true, force: true });
  await mkdir(root, { recursive: true });
  const skip = outputFolders(manifest);
  await cp(templateDir, workspace, {
    recursive: true,
    filter: (source) => {
      const path = relative(templateDir, source).split(sep);
      return path[0] === '' || path.length > 1 || !skip.has(path[0]!);
    },
  });
  await writeFile(join(workspace, SOURCE_STAMP), hash);
  return workspace;
}

/** Preparations and builds in progress by workspace: one template is never copied and built at once. */
const busy = new Map<string, Promise<unknown>>();

/** Copies (if needed) and builds a template; returns the workspace and the artifacts relative to it. */
export async function buildInWorkspace(templateDir: string, manifest: Manifest, root: string, options: BuildOptions = {}): Promise<{ dir: string; artifacts: string[] }> {
  const key = join(root, manifest.id);
  const previous = busy.get(key) ?? Promise.resolve();
  const mine = previous
    .catch(() => undefined)
    .then(async () => {
      const dir = await prepareWorkspace(templateDir, manifest, root);
      return { dir, artifacts: await runBuild(dir, manifest, options) };
    });
  busy.set(key, mine);
  try {
    return await mine;
  } finally {
    if (busy.get(key) === mine) busy.delete(key);
  }
}
