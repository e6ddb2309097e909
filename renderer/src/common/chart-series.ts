// What a streaming chart draws, without the chart: a series (its label, colour and the value it
// reads from each second's point), a step marker, the points as a series' {x, y} with a gap where
// the load paused (between steps, or a drain that came long after its window: no line is drawn
// across a pause, as in the PDF), which points stand alone (drawn as a dot: a one-second run is a
// single point, which a line of width zero would not show), and the rows that keep close step
// labels apart. Apart from streaming-chart.ts so the charts' definitions and these rules are plain
// data and functions that tests read without a DOM.

import type { LivePoint } from '../../../app/runs/runs.ts';

export interface SeriesSpec {
  label: string;
  color: string;
  /** The y value of a point, or null for a gap. */
  value: (point: LivePoint) => number | null;
}

export interface StepMarker {
  t: number;
  label: string;
}

export type XY = { x: number; y: number | null };

/** Consecutive points further apart than this (seconds) are not joined: the load paused between them. */
export const PAUSE_GAP_S = 1.5;

/** Whether the line from `before` to `after` would cross a pause: another step, or a time gap. */
export function pausedBetween(before: LivePoint, after: LivePoint): boolean {
  return before.step !== after.step || after.t - before.t > PAUSE_GAP_S;
}

/**
 * The {x, y} a series gets for `points[from…]` (what a streaming chart appends), with a null point
 * halfway into each pause so the line breaks there; `value` maps a point to its y (log axes: ≤ 0 is a gap).
 */
export function seriesPoints(points: readonly LivePoint[], from: number, value: (point: LivePoint) => number | null): XY[] {
  const out: XY[] = [];
  for (let i = from; i < points.length; i++) {
    const point = points[i]!;
    const before = points[i - 1];
    if (before && pausedBetween(before, point)) out.push({ x: (before.t + point.t) / 2, y: null });
    out.push({ x: point.t, y: value(point) });
  }
  return out;
}

/** Whether the value at `index` has no neighbour to draw a line to (it is drawn as a dot instead). */
export function standsAlone(data: readonly XY[], index: number): boolean {
  if (data[index]?.y === null || data[index] === undefined) return false;
  const near = (i: number) => data[i] !== undefined && data[i]!.y !== null;
  return !near(index - 1) && !near(index + 1);
}

/**
 * The row (0 = top) of each step label, in marker order: a label goes into the first row where it
 * starts past the end of the label before it, so labels of close steps never print over each other;
 * past `maxRows` the least crowded row takes it. `xs` and `widths` in pixels.
 */
export function labelRows(xs: readonly number[], widths: readonly number[], maxRows = 3): number[] {
  const ends: number[] = [];
  return xs.map((x, i) => {
    let row = ends.findIndex((end) => x >= end);
    if (row === -1 && ends.length < maxRows) row = ends.length;
    if (row === -1) row = ends.indexOf(Math.min(...ends));
    ends[row] = x + widths[i]! + 6;
    return row;
  });
}
