// A CPU profile as a flame graph: folded stacks ("frame;frame;leaf count", one line per distinct
// stack, root first) read into a tree with each frame's self and total samples, the frames that
// took the most time on their own, a search that names the matching frames and their share of
// the samples, and the rectangles of the picture (x and width as fractions of the shown frame).
// Pure, so the UI and the PDF draw the same graph from the same text.

import { parseFolded } from './profiles.ts';

export interface FlameNode {
  name: string;
  /** Samples whose leaf is this frame (time spent in the frame itself). */
  self: number;
  /** Samples with this frame on the stack at this place: self plus the children's totals. */
  total: number;
  /** Sorted by name, as flame graphs are (the x order carries no time). */
  children: FlameNode[];
}

export interface FlameTree {
  root: FlameNode;
  /** All samples of the profile (the root's total). */
  samples: number;
}

export const ROOT_NAME = 'all';

interface Building {
  name: string;
  self: number;
  total: number;
  children: Map<string, Building>;
}

function building(name: string): Building {
  return { name, self: 0, total: 0, children: new Map() };
}

function finish(node: Building): FlameNode {
  const children = [...node.children.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).map(finish);
  return { name: node.name, self: node.self, total: node.total, children };
}

/** Reads folded stacks (profiles.ts reads the lines) into a tree. The same stack on several lines adds up. */
export function flameTree(text: string): FlameTree {
  const root = building(ROOT_NAME);
  for (const stack of parseFolded(text)) {
    root.total += stack.count;
    let node = root;
    for (const frame of stack.frames) {
      let child = node.children.get(frame);
      if (!child) {
        child = building(frame);
        node.children.set(frame, child);
      }
      child.total += stack.count;
      node = child;
    }
    node.self += stack.count;
  }
  return { root: finish(root), samples: root.total };
}

/** Writes a tree back as folded stacks (one line per stack with self samples), sorted, so equal profiles give equal text. */
export function foldedOf(root: FlameNode): string {
  const lines: string[] = [];
  const walk = (node: FlameNode, path: string[]) => {
    if (node.self > 0 && path.length > 0) lines.push(`${path.join(';')} ${node.self}`);
    for (const child of node.children) walk(child, [...path, child.name]);
  };
  walk(root, []);
  return lines.length ? `${lines.join('\n')}\n` : '';
}

export interface TopFrame {
  name: string;
  /** Samples with the frame as leaf, wherever it is called from. */
  self: number;
  /** Samples with the frame anywhere on the stack (a recursive frame counted once per sample). */
  total: number;
  selfShare: number;
  totalShare: number;
}

/** Every frame by name, over all the places it is called from; most self time first. */
export function frameTotals(tree: FlameTree): TopFrame[] {
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  const walk = (node: FlameNode, onStack: Set<string>) => {
    self.set(node.name, (self.get(node.name) ?? 0) + node.self);
    // Counted where the frame first appears on the stack, so recursion does not count a sample twice.
    const first = !onStack.has(node.name);
    if (first) {
      total.set(node.name, (total.get(node.name) ?? 0) + node.total);
      onStack.add(node.name);
    }
    for (const child of node.children) walk(child, onStack);
    if (first) onStack.delete(node.name);
  };
  for (const child of tree.root.children) walk(child, new Set());
  const share = (value: number) => (tree.samples > 0 ? value / tree.samples : 0);
  return [...total.keys()]
    .map((name) => ({ name, self: self.get(name) ?? 0, total: total.get(name)!, selfShare: share(self.get(name) ?? 0), totalShare: share(total.get(name)!) }))
    .sort((a, b) => b.self - a.self || b.total - a.total || (a.name < b.name ? -1 : 1));
}

/** The `limit` frames with the most self time (frames that never are a leaf left out). */
export function topFrames(tree: FlameTree, limit = 20): TopFrame[] {
  return frameTotals(tree)
    .filter((frame) => frame.self > 0)
    .slice(0, limit);
}

/**
 * A search: a plain text matched anywhere in a frame's name, case-insensitive, or a regular
 * expression written between slashes (`/^java\./`). An invalid expression matches nothing.
 */
export function frameMatcher(query: string): ((name: string) => boolean) | null {
  const text = query.trim();
  if (text === '') return null;
  const regex = /^\/(.+)\/([a-z]*)$/.exec(text);
  if (regex) {
    try {
      const pattern = new RegExp(regex[1]!, regex[2]!.includes('i') ? 'i' : '');
      return (name) => pattern.test(name);
    } catch {
      return () => false;
    }
  }
  const lower = text.toLowerCase();
  return (name) => name.toLowerCase().includes(lower);
}

export interface SearchResult {
  /** Names of the distinct frames that match. */
  frames: string[];
  /** Samples with a matching frame on the stack (each sample once). */
  samples: number;
  share: number;
}

/** What a search finds in a tree: the frames it names and the share of samples under them. */
export function searchFrames(tree: FlameTree, query: string): SearchResult {
  const matches = frameMatcher(query);
  if (!matches) return { frames: [], samples: 0, share: 0 };
  const frames = new Set<string>();
  let samples = 0;
  const walk = (node: FlameNode, under: boolean) => {
    const hit = matches(node.name);
    if (hit) frames.add(node.name);
    // A match under a match is already counted in its ancestor's total.
    if (hit && !under) samples += node.total;
    for (const child of node.children) walk(child, under || hit);
  };
  for (const child of tree.root.children) walk(child, false);
  return { frames: [...frames].sort(), samples, share: tree.samples > 0 ? samples / tree.samples : 0 };
}

/** The node at a path of frame names below the root (the zoomed frame), or null when the profile has none there. */
export function nodeAt(root: FlameNode, path: readonly string[]): FlameNode | null {
  let node: FlameNode | undefined = root;
  for (const name of path) {
    node = node.children.find((child) => child.name === name);
    if (!node) return null;
  }
  return node;
}

export interface FlameRect<N extends FlameNode = FlameNode> {
  node: N;
  /** Frame names from below the root to this node: what a click zooms to. */
  path: string[];
  depth: number;
  /** Left edge and width as fractions of the shown width (0..1). */
  x: number;
  width: number;
}

/**
 * The rectangles of a flame graph zoomed on `path` (root first): the zoomed frame's ancestors as
 * full-width bars, then its subtree scaled to the full width. Frames narrower than `minWidth` (a
 * fraction) are left out with their children: they would be less than a pixel.
 */
export function layoutFlame<N extends FlameNode>(root: N, path: readonly string[] = [], minWidth = 0): Array<FlameRect<N>> {
  const rects: Array<FlameRect<N>> = [];
  let node = root;
  const trail: string[] = [];
  rects.push({ node: root, path: [], depth: 0, x: 0, width: 1 });
  for (const name of path) {
    const next = node.children.find((child) => child.name === name) as N | undefined;
    if (!next) break;
    node = next;
    trail.push(name);
    rects.push({ node, path: [...trail], depth: trail.length, x: 0, width: 1 });
  }
  const scale = node.total > 0 ? 1 / node.total : 0;
  const place = (parent: N, parentPath: string[], depth: number, x: number) => {
    let left = x;
    for (const child of parent.children as N[]) {
      const width = child.total * scale;
      if (width >= minWidth && width > 0) {
        const childPath = [...parentPath, child.name];
        rects.push({ node: child, path: childPath, depth, x: left, width });
        place(child, childPath, depth + 1, left);
      }
      left += width;
    }
  };
  place(node, trail, trail.length + 1, 0);
  return rects;
}

/** The deepest row of a layout, plus one: the picture's height in rows. */
export function layoutDepth(rects: readonly FlameRect[]): number {
  return rects.reduce((deepest, rect) => Math.max(deepest, rect.depth + 1), 0);
}

/** A warm colour per frame name, stable across renders and profiles (the same frame looks the same side by side). */
export function frameColor(name: string): string {
  let hash = 2166136261;
  for (let i = 0; i < name.length; i++) hash = Math.imul(hash ^ name.charCodeAt(i), 16777619);
  const unit = (hash >>> 0) / 4294967296;
  const hue = Math.round(unit * 50); // red to orange-yellow
  const light = 55 + Math.round(((hash >>> 8) & 0xff) / 255 * 12);
  return `hsl(${hue}, 85%, ${light}%)`;
}

/** A share as a percentage with one decimal ("12.3 %"); below 0.1 % it says so. */
export function shareText(share: number): string {
  if (share > 0 && share < 0.001) return '< 0.1 %';
  return `${(share * 100).toFixed(1)} %`;
}
