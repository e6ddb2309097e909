// A chart.js line chart fed one second at a time, for the Run page and replay, in the look of
// chart-setup.ts: only new points appended per update (the line broken at pauses, chart-series.ts),
// step starts as labelled vertical lines with their labels in rows that keep them apart, and the
// warm-up as a shaded band.

import type { Plugin } from 'chart.js';
import { Chart, lineDataset, lineOptions, onAxis, yScale, type XY } from './chart-setup.ts';
import type { LivePoint } from '../../../app/runs/runs.ts';
import { labelRows, seriesPoints, standsAlone, type SeriesSpec, type StepMarker } from './chart-series.ts';

/** The height of one row of step labels. */
const LABEL_ROW_PX = 12;

interface Overlay {
  markers: StepMarker[];
  warmup: { from: number; to: number } | null;
}

const overlays = new WeakMap<Chart, Overlay>();

const overlayPlugin: Plugin<'line'> = {
  id: 'benchlabOverlay',
  beforeDatasetsDraw(chart) {
    const overlay = overlays.get(chart as unknown as Chart);
    const x = chart.scales.x;
    if (!overlay || !x) return;
    const { ctx, chartArea } = chart;
    ctx.save();
    if (overlay.warmup) {
      const from = x.getPixelForValue(overlay.warmup.from);
      const to = x.getPixelForValue(overlay.warmup.to);
      ctx.fillStyle = 'rgba(128, 128, 128, 0.12)';
      ctx.fillRect(from, chartArea.top, Math.max(1, to - from), chartArea.bottom - chartArea.top);
    }
    ctx.strokeStyle = 'rgba(128, 128, 128, 0.7)';
    ctx.fillStyle = 'rgba(128, 128, 128, 0.95)';
    ctx.font = '11px system-ui, sans-serif';
    ctx.setLineDash([4, 3]);
    const shown = overlay.markers.map((marker) => ({ marker, px: x.getPixelForValue(marker.t) })).filter(({ px }) => px >= chartArea.left && px <= chartArea.right);
    const rows = labelRows(
      shown.map(({ px }) => px),
      shown.map(({ marker }) => ctx.measureText(marker.label).width),
    );
    shown.forEach(({ marker, px }, i) => {
      // Close steps' labels go into rows of their own at the top of the plot, never over each other.
      const labelY = chartArea.top + 10 + LABEL_ROW_PX * rows[i]!;
      ctx.beginPath();
      ctx.moveTo(px, chartArea.top);
      ctx.lineTo(px, chartArea.bottom);
      ctx.stroke();
      ctx.fillText(marker.label, px + 3, labelY);
    });
    ctx.restore();
  },
};
Chart.register(overlayPlugin);

export class StreamingChart {
  readonly #chart: Chart<'line', XY[]>;
  readonly #series: SeriesSpec[];
  readonly #unit: string;
  #source: readonly LivePoint[] | null = null;
  #generation = -1;
  #count = 0;
  #log = false;

  constructor(canvas: HTMLCanvasElement, series: SeriesSpec[], unit: string) {
    this.#series = series;
    this.#unit = unit;
    this.#chart = new Chart<'line', XY[]>(canvas, {
      type: 'line',
      data: { datasets: series.map((spec) => lineDataset(spec, [])) },
      options: lineOptions({ x: { title: 's' }, y: { title: unit }, legend: series.length > 1 }),
    });
    // Session seconds from 0: a run of a second or two is not stretched over the whole width.
    this.#chart.options.scales!.x!.min = 0;
    overlays.set(this.#chart as unknown as Chart, { markers: [], warmup: null });
  }

  /**
   * Shows `points` (append-only within one `generation`): appends what is new since the last call,
   * or starts over for another generation or axis.
   */
  show(points: readonly LivePoint[], generation: number, markers: StepMarker[], log: boolean): void {
    const chart = this.#chart;
    if (generation !== this.#generation || points !== this.#source || points.length < this.#count || log !== this.#log) {
      for (const dataset of chart.data.datasets) dataset.data = [];
      this.#source = points;
      this.#generation = generation;
      this.#count = 0;
      this.#setLog(log);
    }
    this.#series.forEach((spec, index) => {
      chart.data.datasets[index]!.data.push(...seriesPoints(points, this.#count, (point) => onAxis(spec.value(point), log)));
    });
    this.#count = points.length;
    let warmFrom: number | null = null;
    let warmTo: number | null = null;
    for (const point of points) {
      if (!point.warmup) continue;
      warmFrom ??= point.t - 1;
      warmTo = point.t;
    }
    overlays.set(chart as unknown as Chart, { markers, warmup: warmFrom !== null && warmTo !== null ? { from: warmFrom, to: warmTo } : null });
    chart.update('none');
  }

  /** What is drawn, for tests: the highest value, the breaks at pauses and the values drawn as lone dots. */
  drawn(): { top: number | null; breaks: number; alone: number } {
    let top: number | null = null;
    let alone = 0;
    for (const dataset of this.#chart.data.datasets) {
      dataset.data.forEach((xy, i) => {
        if (xy.y !== null && (top === null || xy.y > top)) top = xy.y;
        if (standsAlone(dataset.data, i)) alone++;
      });
    }
    const breaks = this.#chart.data.datasets[0]?.data.filter((xy) => xy.y === null).length ?? 0;
    return { top, breaks, alone };
  }

  destroy(): void {
    this.#chart.destroy();
  }

  #setLog(log: boolean): void {
    this.#log = log;
    this.#chart.options.scales!.y = yScale({ title: this.#unit, log });
  }
}
