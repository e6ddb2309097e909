// The runtime part of Compare's host diff: the version of each runtime the sessions' servers ran on
// (node, java, apache2), as their deployments recorded it (config.components). A runtime two sessions
// both used in different versions is flagged: a Node 24 server against a Node 20 one measures the
// runtime as much as the template. Different runtimes (apache2 against node) are no such difference:
// they are what two templates are. Sessions that recorded none show "not recorded".

import { RUNTIMES } from '../templates/templates.ts';
import type { HostDiff, HostDiffRow } from './host-diff.ts';

/** The runtimes' versions of a session's recorded components (name → version); {} when it recorded none. */
export function runtimeVersionsOf(config: Readonly<Record<string, unknown>>): Record<string, string> {
  const components = config.components;
  if (typeof components !== 'object' || components === null || Array.isArray(components)) return {};
  const versions: Record<string, string> = {};
  for (const runtime of RUNTIMES) {
    const version = (components as Record<string, unknown>)[runtime];
    if (typeof version === 'string' && version.length > 0) versions[runtime] = version;
  }
  return versions;
}

/** `configs[i]` is session i's config; `names[i]` its name, for the warning. */
export function diffRuntimes(names: readonly string[], configs: ReadonlyArray<Readonly<Record<string, unknown>>>): HostDiff {
  const versions = configs.map(runtimeVersionsOf);
  const rows: HostDiffRow[] = [];
  const warnings: string[] = [];
  for (const runtime of RUNTIMES) {
    const values = versions.map((found) => found[runtime] ?? null);
    if (values.every((value) => value === null)) continue;
    const known = values.filter((value): value is string => value !== null);
    const differs = new Set(known).size > 1;
    rows.push({ role: 'server', label: `${runtime} version`, values, differs });
    if (differs) {
      const which = values.flatMap((value, i) => (value === null ? [] : [`${value} (“${names[i] ?? `#${i + 1}`}”)`]));
      warnings.push(`The servers ran on different ${runtime} versions: ${which.join(', ')}; part of the difference may be the runtime's.`);
    }
  }
  return { rows, warnings };
}
