// The template catalog: every folder of server-templates/ with its manifest validated by app/, and
// where the bundled files live (the repository in development, Electron's resources when packaged).
// A broken manifest becomes an entry in `broken` with its reason; it never stops the others. A
// folder without a manifest that templates' builds read (an input "../jvm-common") is shared code,
// not a template, and is left out.

import { existsSync } from 'node:fs';
import { readFile, readdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { parseManifest, sharedFolders, type Manifest } from '../../../app/templates/templates.ts';

export const PAYLOAD_FILE_NAME = 'payload-43k.bin';

export interface BundledPaths {
  templatesDir: string;
  payloadFile: string;
}

/** server-templates/ and the 43 KB payload: beside a packaged app's resources, or in the repository. */
export function bundledPaths(): BundledPaths {
  const resources = (process as { resourcesPath?: string }).resourcesPath;
  if (resources && existsSync(join(resources, 'server-templates', 'CONTRACT.md'))) {
    return { templatesDir: join(resources, 'server-templates'), payloadFile: join(resources, 'payload', PAYLOAD_FILE_NAME) };
  }
  // Sources run in place (web mode, CLI, tests) and electron-vite's out/main both sit below the root.
  for (let dir = import.meta.dirname; dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, 'server-templates', 'CONTRACT.md'))) {
      return { templatesDir: join(dir, 'server-templates'), payloadFile: join(dir, 'resources', 'payload', PAYLOAD_FILE_NAME) };
    }
  }
  throw new Error('cannot find the server-templates folder');
}

/** The bundled paths, the templates from BENCHLAB_TEMPLATES_DIR when it is set. */
export function templatePathsFromEnv(env: NodeJS.ProcessEnv = process.env): BundledPaths {
  const bundled = bundledPaths();
  const own = env.BENCHLAB_TEMPLATES_DIR?.trim();
  return own ? { templatesDir: own, payloadFile: bundled.payloadFile } : bundled;
}

export interface CatalogEntry {
  folder: string;
  /** The template's folder on this machine. */
  dir: string;
  manifest: Manifest;
}

export interface Catalog {
  entries: CatalogEntry[];
  broken: Array<{ folder: string; error: string }>;
}

async function isFile(path: string): Promise<boolean> {
  return (await stat(path).catch(() => null))?.isFile() ?? false;
}

async function isFolder(path: string): Promise<boolean> {
  return (await stat(path).catch(() => null))?.isDirectory() ?? false;
}

/** Why a valid manifest cannot be used in its folder (a listed file or a shared folder is missing), or null. */
async function folderProblem(templatesDir: string, folder: string, manifest: Manifest): Promise<string | null> {
  const dir = join(templatesDir, folder);
  const missing: string[] = [];
  for (const file of manifest.files) {
    if (!(await isFile(join(dir, file)))) missing.push(file);
  }
  if (missing.length > 0) return `template.json: files: ${missing.join(', ')} ${missing.length === 1 ? 'does' : 'do'} not exist in the folder`;
  const absent: string[] = [];
  for (const shared of sharedFolders(manifest)) {
    if (!(await isFolder(join(templatesDir, shared)))) absent.push(`../${shared}`);
  }
  if (absent.length > 0) return `template.json: build inputs: ${absent.join(', ')} ${absent.length === 1 ? 'is' : 'are'} not a folder beside the template`;
  return null;
}

/** Reads every template folder afresh (manifests are small; an edited one shows up at once). */
export async function loadCatalog(templatesDir: string): Promise<Catalog> {
  const catalog: Catalog = { entries: [], broken: [] };
  const folders = (await readdir(templatesDir, { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
  const withoutManifest: string[] = [];
  const shared = new Set<string>();
  for (const folder of folders) {
    const dir = join(templatesDir, folder);
    let text: string;
    try {
      text = await readFile(join(dir, 'template.json'), 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') withoutManifest.push(folder);
      else catalog.broken.push({ folder, error: `cannot read template.json (${code ?? String(error)})` });
      continue;
    }
    const parsed = parseManifest(text, folder);
    if (!parsed.ok) {
      catalog.broken.push({ folder, error: parsed.error });
      continue;
    }
    for (const name of sharedFolders(parsed.manifest)) shared.add(name);
    const problem = await folderProblem(templatesDir, folder, parsed.manifest);
    if (problem) catalog.broken.push({ folder, error: problem });
    else catalog.entries.push({ folder, dir, manifest: parsed.manifest });
  }
  for (const folder of withoutManifest.filter((candidate) => !shared.has(candidate))) {
    catalog.broken.push({ folder, error: 'template.json is missing' });
  }
  catalog.broken.sort((a, b) => folders.indexOf(a.folder) - folders.indexOf(b.folder));
  return catalog;
}
