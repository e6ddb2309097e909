// Where a template with build steps is built: a copy of its folder under the data dir, never the
// folder itself, which ships read-only inside a packaged app (an AppImage is a read-only mount) and
// must not collect build output. The workspace `<root>/<id>/` mirrors the templates folder: the
// copy at `<id>/` and, beside it, a copy of each shared folder its build reads (inputs
// "../jvm-common"), so relative paths such as a Maven parent's `../jvm-common/pom.xml` work as they
// do in the templates folder. Each template has its own copies, so two templates' builds never
// share files. The workspace is keyed by the content of the template and its shared folders: while
// it is unchanged the copy, its build output and the steps' input stamps are reused (incremental
// Maven builds); a change starts again from a clean copy, so no dropped file lingers in a build.

import { createHash } from 'node:crypto';
import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { sharedFolders, type Manifest } from '../../../app/templates/templates.ts';
import { runBuild, type BuildOptions } from './local-build.ts';

/** Beside the copies in the workspace: the hash of the sources they were copied from. */
const SOURCE_STAMP = '.benchlab-source-sha256';

/**
 * Installed packages are never sources: a Node template built by hand in its folder leaves its
 * node_modules there, which the build's own `npm ci` makes again from the lockfile.
 */
const INSTALLED_PACKAGES = 'node_modules';

/** Top-level folders the build writes (the first part of each artifact path) and installed packages: not part of the source. */
function outputFolders(manifest: Manifest): Set<string> {
  return new Set([INSTALLED_PACKAGES, ...manifest.build.flatMap((step) => step.artifacts.map((artifact) => artifact.split('/')[0]!)).filter((first) => first !== '')]);
}

/** A folder the workspace copies: from the templates folder, to `name` in the workspace, without its top-level `skip` folders. */
interface CopiedFolder {
  from: string;
  name: string;
  skip: Set<string>;
}

/** The template's folder (its build output left out) and the shared folders beside it that its build reads. */
function copiedFolders(templateDir: string, manifest: Manifest): CopiedFolder[] {
  return [
    { from: templateDir, name: manifest.id, skip: outputFolders(manifest) },
    ...sharedFolders(manifest).map((name) => ({ from: join(dirname(templateDir), name), name, skip: new Set([INSTALLED_PACKAGES]) })),
  ];
}

async function sourceFiles(dir: string, skip: Set<string>, under = ''): Promise<string[]> {
  const entries = await readdir(join(dir, under), { withFileTypes: true });
  const files: string[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const path = under ? `${under}/${entry.name}` : entry.name;
    if (!under && skip.has(entry.name)) continue;
    if (entry.isDirectory()) files.push(...(await sourceFiles(dir, skip, path)));
    else if (entry.isFile()) files.push(path);
  }
  return files;
}

/**
 * sha256 over every source file's path (as seen from the workspace) and bytes, of the template
 * (build output folders left out) and of the shared folders its build reads.
 */
export async function templateSourceHash(dir: string, manifest: Manifest): Promise<string> {
  // The layout is part of the key, so a workspace of the earlier flat layout is never taken for this one.
  const hash = createHash('sha256').update('workspace: <id>/ beside its shared folders');
  for (const folder of copiedFolders(dir, manifest)) {
    for (const file of await sourceFiles(folder.from, folder.skip)) {
      const bytes = await readFile(join(folder.from, file));
      hash.update(`\0${folder.name}/${file}\0${bytes.length}\0`).update(bytes);
    }
  }
  return hash.digest('hex');
}

/** The build copy of a template under `root` (its folder in the workspace), made fresh if its sources changed. */
export async function prepareWorkspace(templateDir: string, manifest: Manifest, root: string): Promise<string> {
  const workspace = join(root, manifest.id);
  const copy = join(workspace, manifest.id);
  const hash = await templateSourceHash(templateDir, manifest);
  if ((await readFile(join(workspace, SOURCE_STAMP), 'utf8').catch(() => '')) === hash) return copy;
  await rm(workspace, { recursive: true, force: true });
  await mkdir(workspace, { recursive: true });
  for (const folder of copiedFolders(templateDir, manifest)) {
    await cp(folder.from, join(workspace, folder.name), {
      recursive: true,
      filter: (source) => {
        const path = relative(folder.from, source).split(sep);
        return path[0] === '' || path.length > 1 || !folder.skip.has(path[0]!);
      },
    });
  }
  await writeFile(join(workspace, SOURCE_STAMP), hash);
  return copy;
}

/** Preparations and builds in progress by workspace: one template is never copied and built at once. */
const busy = new Map<string, Promise<unknown>>();

/** Copies (if needed) and builds a template; returns its copy, where the build ran, and the artifacts relative to it. */
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
