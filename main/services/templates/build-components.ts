// What a deployment's server runs on and with, recorded with the deployment and the sessions run
// against it: the runtime its start command uses (node 20.20.2, java 21.0.5, apache2 2.4.62; two
// deployments of one template on different Nodes measure different things) and what the
// template's build says it bundled — the manifest's `components` artifact, a JSON object of package
// names and versions (the Node templates' dist/components.json: {"express": "5.3.0", "pg": "8.23.1"}).

import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { ApiError, messageOf } from '../../../app/common/errors.ts';
import type { HostFacts } from '../../../app/templates/template-hosts.ts';
import { RUNTIMES } from '../../../app/templates/templates.ts';

/**
 * The version of each runtime the start command uses ({node}, {java}, {apache2} as the requirement
 * check picked them on the host); a runtime Benchlab uploaded is not among the host's facts, so
 * its version comes as `uploaded`.
 */
export function runtimeVersions(placeholders: Record<string, string>, facts: HostFacts, uploaded: Record<string, string> = {}): Record<string, string> {
  const found = [...(facts.node ? [['node', facts.node] as const] : []), ...(facts.apache2 ? [['apache2', facts.apache2] as const] : []), ...facts.java.map((java) => ['java', java] as const)];
  const versions: Record<string, string> = {};
  for (const runtime of RUNTIMES) {
    const path = placeholders[runtime];
    const version = uploaded[runtime] ?? found.find(([name, candidate]) => name === runtime && candidate.path === path)?.[1].version;
    if (path && version) versions[runtime] = version;
  }
  return versions;
}

const Components = z.record(z.string().min(1).max(100), z.string().min(1).max(100));

/** The components the build wrote to `file`; a missing or malformed file fails the deploy with what is wrong. */
export async function readBuildComponents(file: string, name: string): Promise<Record<string, string>> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new ApiError('unavailable', `the build's ${name} cannot be read (${messageOf(error)}): rebuild the template`);
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
