// Finds the FerretDB binary a deploy with the database `mongo` uploads to a server host without a
// mongod: in BENCHLAB_FERRETDB_DIR when set, else the packaged app's resources/ferretdb folder,
// else out/ferretdb in a checkout, built there (or rebuilt when its sources changed) by
// scripts/build-ferretdb.ts on first use, as the native engine is. One build at a time per process.

import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ferretdbFileName } from '../../../app/templates/template-mongo.ts';
import { messageOf } from '../../../app/common/errors.ts';

const REPO_ROOT = resolve(import.meta.dirname, '..', '..', '..');
const BUILDER = join(REPO_ROOT, 'scripts', 'build-ferretdb.ts');

type BuildResult = { status: 'built' | 'up-to-date'; binary: string } | { status: 'unavailable'; reason: string };
interface Builder {
  buildFerretdb: () => Promise<BuildResult>;
}

let building: Promise<BuildResult> | null = null;

export type FerretdbLookup = { ok: true; file: string; built: boolean } | { ok: false; reason: string };

/** The binary's local file, building it first in a checkout; `onBuild` hears when a build starts. */
export async function ferretdbBinary(onBuild?: () => void): Promise<FerretdbLookup> {
  const fixed = process.env.BENCHLAB_FERRETDB_DIR ?? (process as { resourcesPath?: string }).resourcesPath;
  if (fixed) {
    const file = join(resolve(fixed), process.env.BENCHLAB_FERRETDB_DIR ? '' : 'ferretdb', ferretdbFileName());
    return existsSync(file) ? { ok: true, file, built: false } : { ok: false, reason: `this Benchlab has no FerretDB binary (${file} is missing)` };
  }
  if (!existsSync(BUILDER)) return { ok: false, reason: 'this Benchlab has no FerretDB binary nor its build script' };
  onBuild?.();
  building ??= (import(BUILDER) as Promise<Builder>)
    .then((builder) => builder.buildFerretdb())
    .finally(() => {
      building = null;
    });
  try {
    const result = await building;
    if (result.status === 'unavailable') return { ok: false, reason: `FerretDB is not built: ${result.reason}` };
    return { ok: true, file: result.binary, built: result.status === 'built' };
  } catch (error) {
    return { ok: false, reason: messageOf(error) };
  }
}
