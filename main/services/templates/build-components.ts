// What a template's build says it was built with: the manifest's `components` artifact, a JSON
// object of package names and versions (the Node templates' dist/components.json, e.g.
// {"express": "5.3.0", "pg": "8.23.1"}), read once the build is done so the deployment and the
// sessions run against it record them.

import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { ApiError } from '../../../app/common/errors.ts';

const Components = z.record(z.string().min(1).max(100), z.string().min(1).max(100));

/** The components the build wrote to `file`; a missing or malformed file fails the deploy with what is wrong. */
export async function readBuildComponents(file: string, name: string): Promise<Record<string, string>> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new ApiError('unavailable', `the build's ${name} cannot be read (${(error as Error).message}): rebuild the template`);
  }
  const parsed = Components.safeParse(json);
  if (!parsed.success) throw new ApiError('unavailable', `the build's ${name} is not an object of package names and versions: rebuild the template`);
  return parsed.data;
}

/** "express 5.3.0, pg 8.23.1" */
export function describeComponents(components: Record<string, string>): string {
  return Object.entries(components)
    .map(([name, version]) => `${name} ${version}`)
    .join(', ');
}
