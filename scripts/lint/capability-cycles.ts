// Lint rule: no import cycle between capability folders (docs/architecture.md, "The layers and the
// slices"). Inside app/, main/services/ and renderer/src/features/, each subfolder is a capability
// (hosts, presets, runs, …); capabilities import one another one way only, so each can be read,
// tested and changed from the bottom up. An import from one capability into another is refused when
// the other already reaches back, directly or through others. The tree's other imports are read
// from disk once per lint process; the file being linted counts with its text as it is now. Test
// files are exempt, both as importers and as links of a cycle.

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { Rule } from 'eslint';
import ts from 'typescript';

/** The folders whose subfolders are capabilities, relative to the repository. */
export const CAPABILITY_ROOTS = ['app', 'main/services', 'renderer/src/features'] as const;

const REPO = resolve(dirname(new URL(import.meta.url).pathname), '..', '..');
const SOURCE = /\.tsx?$/;
const TEST = /\.test\.tsx?$/;

interface Place {
  root: string;
  capability: string;
}

/** The capability a repository path (with "/") belongs to, or null outside the capability folders. */
export function capabilityOf(repoPath: string): Place | null {
  for (const root of CAPABILITY_ROOTS) {
    if (!repoPath.startsWith(`${root}/`)) continue;
    const rest = repoPath.slice(root.length + 1).split('/');
    return rest.length > 1 ? { root, capability: rest[0]! } : null;
  }
  return null;
}

function repoPathOf(absolute: string): string {
  return relative(REPO, absolute).split(sep).join('/');
}

/** The capability a relative import of `fromFile` lands in, when it is another one of the same root. */
function importedCapability(fromFile: string, from: Place, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const target = capabilityOf(repoPathOf(resolve(REPO, dirname(fromFile), specifier)));
  return target && target.root === from.root && target.capability !== from.capability ? target.capability : null;
}

/** root → capability → capability it imports → the files (repository paths) that import it. */
type Graph = Map<string, Map<string, Map<string, string[]>>>;

let cached: Graph | null = null;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
    return SOURCE.test(entry.name) && !TEST.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

function treeGraph(): Graph {
  if (cached) return cached;
  const graph: Graph = new Map();
  for (const root of CAPABILITY_ROOTS) {
    const edges = new Map<string, Map<string, string[]>>();
    graph.set(root, edges);
    for (const absolute of sourceFiles(join(REPO, root))) {
      const file = repoPathOf(absolute);
      const from = capabilityOf(file);
      if (!from) continue;
      for (const imported of ts.preProcessFile(readFileSync(absolute, 'utf8'), true, true).importedFiles) {
        const to = importedCapability(file, from, imported.fileName);
        if (!to) continue;
        const byTarget = edges.get(from.capability) ?? new Map<string, string[]>();
        edges.set(from.capability, byTarget);
        byTarget.set(to, [...(byTarget.get(to) ?? []), file]);
      }
    }
  }
  cached = graph;
  return graph;
}

/**
 * A way from `start` back to `goal` through the tree's imports, leaving out `ignoredFile`'s own (its
 * text is linted instead): each hop as "a → b (the first file of a that imports b)", or null.
 */
export function wayBack(root: string, start: string, goal: string, ignoredFile: string): string[] | null {
  const edges = treeGraph().get(root) ?? new Map<string, Map<string, string[]>>();
  const cameFrom = new Map<string, { from: string; file: string }>();
  const queue = [start];
  const seen = new Set([start]);
  while (queue.length > 0) {
    const at = queue.shift()!;
    for (const [next, files] of edges.get(at) ?? []) {
      const file = files.find((candidate) => candidate !== ignoredFile);
      if (!file || seen.has(next)) continue;
      seen.add(next);
      cameFrom.set(next, { from: at, file });
      if (next === goal) {
        const hops: string[] = [];
        for (let step = goal; step !== start; step = cameFrom.get(step)!.from) {
          const hop = cameFrom.get(step)!;
          hops.unshift(`${hop.from} → ${step} (${hop.file})`);
        }
        return hops;
      }
      queue.push(next);
    }
  }
  return null;
}

export const noCapabilityCycles: Rule.RuleModule = {
  meta: {
    type: 'problem',
    docs: { description: 'Capability folders of app/, main/services/ and renderer/src/features/ import one another one way only.' },
    schema: [],
    messages: {
      cycle:
        'Import cycle between capabilities of {{root}}/: {{from}} → {{to}} here, and {{back}}. Capabilities import one way only: move what both need into the lower one (or common/).',
    },
  },
  create(context) {
    const file = repoPathOf(resolve(context.cwd, context.filename));
    const place = TEST.test(file) ? null : capabilityOf(file);
    if (!place) return {};
    const check = (node: Rule.Node, source: unknown) => {
      if (typeof source !== 'string') return;
      const to = importedCapability(file, place, source);
      if (!to) return;
      const back = wayBack(place.root, to, place.capability, file);
      if (back) context.report({ node, messageId: 'cycle', data: { root: place.root, from: place.capability, to, back: back.join(', ') } });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => check(node, node.source?.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => check(node, node.source.type === 'Literal' ? node.source.value : undefined),
    };
  },
};

export default { rules: { 'no-capability-cycles': noCapabilityCycles } };
