// A chart.js line chart fed one second at a time, for the Run page and replay, in the look of
// chart-setup.ts: only new points appended per update, step starts as labelled vertical lines and
// the warm-up as a shaded band.

import type { Plugin } from 'chart.js';
import { Chart, lineDataset, lineOptions, onAxis, yScale, type XY } from './chart-setup.ts';
import type { LivePoint } from '../../../app/runs/runs.ts';
import type { SeriesSpec, StepMarker } from './chart-series.ts';


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
    for (const marker of overlay.markers) {
      const px = x.getPixelForValue(marker.t);
      if (px < chartArea.left || px > chartArea.right) continue;
      ctx.beginPath();
      ctx.moveTo(px, chartArea.top);
      ctx.lineTo(px, chartArea.bottom);
      ctx.stroke();
      ctx.fillText(marker.label, px + 3, chartArea.top + 10);
    }
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
    for (let i = this.#count; i < points.length; i++) {
      const point = points[i]!;
      this.#series.forEach((spec, index) => {
        chart.data.datasets[index]!.data.push({ x: point.t, y: onAxis(spec.value(point), log) });
      });
    }
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

  destroy(): void {
    this.#chart.destroy();
  }

  #setLog(log: boolean): void {
    this.#log = log;
    this.#chart.options.scales!.y = yScale({ title: this.#unit, log });
  }
}
