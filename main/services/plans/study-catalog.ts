// The studies shipped in resources/studies (one plan file each, <id>.yaml), read on every request so
// an edited file shows without a restart. A broken file is listed with what is wrong, never fatal.

import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseStudy, type StudyCatalog } from '../../../app/plans/studies.ts';

/** A study is a plan file: YAML, or JSON (which is YAML too). */
const STUDY_FILE = /\.(ya?ml|json)$/;

export function builtInStudiesDir(): string | null {
  const resourcesPath = (process as { resourcesPath?: string }).resourcesPath;
  const candidates = [
    ...(resourcesPath ? [join(resourcesPath, 'studies')] : []),
    fileURLToPath(new URL('../../../resources/studies/', import.meta.url)),
    fileURLToPath(new URL('../../resources/studies/', import.meta.url)),
  ];
  return candidates.find((dir) => existsSync(dir)) ?? null;
}

export async function loadStudies(dir: string | null): Promise<StudyCatalog> {
  if (!dir) return { studies: [], broken: [{ file: 'resources/studies', error: 'the studies folder was not found' }] };
  const catalog: StudyCatalog = { studies: [], broken: [] };
  for (const file of (await readdir(dir)).filter((name) => STUDY_FILE.test(name)).sort()) {
    const study = parseStudy(await readFile(join(dir, file), 'utf8'));
    if (typeof study === 'string') catalog.broken.push({ file, error: study });
    else if (catalog.studies.some((other) => other.id === study.id)) catalog.broken.push({ file, error: `id "${study.id}" is used by another study` });
    else catalog.studies.push(study);
  }
  return catalog;
}
