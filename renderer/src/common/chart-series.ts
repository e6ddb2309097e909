// What a streaming chart draws, without the chart: a series (its label, colour and the value it
// reads from each second's point) and a step marker. Apart from streaming-chart.ts so the charts'
// definitions are plain data that tests read without a DOM.

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
