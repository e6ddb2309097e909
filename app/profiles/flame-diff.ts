// The differential of two CPU profiles: where the time went up or down from a "before" run to an
// "after" run. Each profile is normalised by its own sample total first, so a longer or faster-
// sampled run does not look slower everywhere: every figure is a share of its run's samples. The
// merged tree holds every stack of either run; a frame's width is the mean of its two shares (a
// frame gone in the after run still shows, as does a new one) and its colour the change of its
// self share (red: more time, blue: less).

import { frameTotals, type FlameNode, type FlameTree } from './flame-graph.ts';

export interface DiffNode extends FlameNode {
  /** Shares of each run's samples: self and total, before and after. */
  before: { self: number; total: number };
  after: { self: number; total: number };
  /** after.self − before.self: the frame's own time, up (positive) or down. */
  delta: number;
  children: DiffNode[];
}

export interface ProfileDiff {
  root: DiffNode;
  beforeSamples: number;
  afterSamples: number;
}

function share(value: number, samples: number): number {
  return samples > 0 ? value / samples : 0;
}

function merge(name: string, a: FlameNode | undefined, b: FlameNode | undefined, aSamples: number, bSamples: number): DiffNode {
  const before = { self: share(a?.self ?? 0, aSamples), total: share(a?.total ?? 0, aSamples) };
  const after = { self: share(b?.self ?? 0, bSamples), total: share(b?.total ?? 0, bSamples) };
  const aChildren = new Map((a?.children ?? []).map((child) => [child.name, child]));
  const bChildren = new Map((b?.children ?? []).map((child) => [child.name, child]));
  const names = [...new Set([...aChildren.keys(), ...bChildren.keys()])].sort();
  const children = names.map((child) => merge(child, aChildren.get(child), bChildren.get(child), aSamples, bSamples));
  return {
    name,
    // Widths in the mean of the two shares: layoutFlame scales by total, so the children fill their parent exactly.
    self: (before.self + after.self) / 2,
    total: (before.total + after.total) / 2,
    before,
    after,
    delta: after.self - before.self,
    children,
  };
}

/** The merged, normalised tree of two profiles. */
export function diffProfiles(before: FlameTree, after: FlameTree): ProfileDiff {
  return { root: merge(before.root.name, before.root, after.root, before.samples, after.samples), beforeSamples: before.samples, afterSamples: after.samples };
}

export interface FrameChange {
  name: string;
  /** Self share before and after, and its change (after − before). */
  before: number;
  after: number;
  delta: number;
}

/** Every frame by name with its self share in each run, the biggest changes (either way) first. */
export function frameChanges(before: FlameTree, after: FlameTree): FrameChange[] {
  const a = new Map(frameTotals(before).map((frame) => [frame.name, frame.selfShare]));
  const b = new Map(frameTotals(after).map((frame) => [frame.name, frame.selfShare]));
  const names = new Set([...a.keys(), ...b.keys()]);
  return [...names]
    .map((name) => ({ name, before: a.get(name) ?? 0, after: b.get(name) ?? 0, delta: (b.get(name) ?? 0) - (a.get(name) ?? 0) }))
    .filter((change) => change.before > 0 || change.after > 0)
    .sort((x, y) => Math.abs(y.delta) - Math.abs(x.delta) || (x.name < y.name ? -1 : 1));
}

/** The frames whose time rose most, and those whose time fell most (each most-changed first). */
export function biggestChanges(before: FlameTree, after: FlameTree, limit = 10): { up: FrameChange[]; down: FrameChange[] } {
  const changes = frameChanges(before, after);
  return {
    up: changes.filter((change) => change.delta > 0).slice(0, limit),
    down: changes.filter((change) => change.delta < 0).slice(0, limit),
  };
}

/**
 * A frame's colour in the differential: red for more self time, blue for less, white for none,
 * saturating at `full` (a change of 5 points of the samples by default), so small shifts still show.
 */
export function deltaColor(delta: number, full = 0.05): string {
  const strength = Math.min(1, Math.abs(delta) / full);
  const light = Math.round(96 - strength * 40);
  return delta >= 0 ? `hsl(0, ${strength > 0 ? 85 : 0}%, ${light}%)` : `hsl(220, 85%, ${light}%)`;
}

/** A change in points of share, signed ("+3.2 pts", "−0.4 pts"). */
export function deltaText(delta: number): string {
  const points = delta * 100;
  const sign = points > 0 ? '+' : points < 0 ? '−' : '±';
  return `${sign}${Math.abs(points).toFixed(1)} pts`;
}
