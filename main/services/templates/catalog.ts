// The template catalog: every folder of server-templates/ with its manifest validated by app/, and
// where the bundled files live (the repository in development, Electron's resources when packaged).
// A broken manifest becomes an entry in `broken` with its reason; it never stops the others.

import { existsSync } from 'node:fs';
import { readFile, readdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { parseManifest, type Manifest } from '../../../app/templates/templates.ts';

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

async function missingFiles(dir: string, manifest: Manifest): Promise<string[]> {
  const missing: string[] = [];
  for (const file of manifest.files) {
    const info = await stat(join(dir, file)).catch(() => null);
    if (!info?.isFile()) missing.push(file);
  }
  return missing;
}

/** Reads every template folder afresh (manifests are small; an edited one shows up at once). */
export async function loadCatalog(templatesDir: string): Promise<Catalog> {
  const catalog: Catalog = { entries: [], broken: [] };
  const folders = (await readdir(templatesDir, { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
  for (const folder of folders) {
    const dir = join(templatesDir, folder);
    let text: string;
    try {
      text = await readFile(join(dir, 'template.json'), 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      catalog.broken.push({ folder, error: code === 'ENOENT' ? 'template.json is missing' : `cannot read template.json (${code ?? String(error)})` });
      continue;
    }
    const parsed = parseManifest(text, folder);
    if (!parsed.ok) {
      catalog.broken.push({ folder, error: parsed.error });
      continue;
    }
    const missing = await missingFiles(dir, parsed.manifest);
    if (missing.length > 0) {
      catalog.broken.push({ folder, error: `template.json: files: ${missing.join(', ')} ${missing.length === 1 ? 'does' : 'do'} not exist in the folder` });
      continue;
    }
    catalog.entries.push({ folder, dir, manifest: parsed.manifest });
  }
  return catalog;
}
