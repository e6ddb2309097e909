// The chart.js parts and the one look every Benchlab chart shares (the live Run page, replay and
// Compare's overlays): registered once (chart.js is tree-shaken: a chart type, scale or plugin not
// registered here does not exist), numbers as {x, y} (no parsing), no animation, LTTB decimation
// for hour-long timelines, thin lines, the same axes, legend and tooltip, and log axes that show
// zeros as gaps (a log axis has no zero).

import { Chart, Decimation, Legend, LinearScale, LineController, LineElement, LogarithmicScale, PointElement, Tooltip, type ChartDataset, type ChartOptions, type ScaleOptions } from 'chart.js';
import { SERIES_COLORS } from '../../../app/sessions/svg-chart.ts';
import { standsAlone, type XY } from './chart-series.ts';

Chart.register(LineController, LineElement, PointElement, LinearScale, LogarithmicScale, Decimation, Legend, Tooltip);

export { Chart };

export type { XY };

/** The colour of the i-th compared session, as in the PDF report. */
export const seriesColor = (index: number): string => SERIES_COLORS[index % SERIES_COLORS.length]!;

/** A value as a log axis can show it: zero and below become a gap. */
export const onAxis = (value: number | null, log: boolean): number | null => (value === null || (log && value <= 0) ? null : value);

export interface AxisSpec {
  title: string;
  log?: boolean;
  /** The text of a tick (a percentile's "99.9", say); the number by default. */
  tick?: (value: number) => string;
}

/** The y axis (starting at zero unless logarithmic); also what a chart's log switch replaces. */
export function yScale(axis: AxisSpec): ScaleOptions<'linear' | 'logarithmic'> {
  return scale(axis, 6, !axis.log);
}

function scale(axis: AxisSpec, maxTicksLimit: number, beginAtZero: boolean): ScaleOptions<'linear' | 'logarithmic'> {
  const { tick } = axis;
  return {
    type: axis.log ? 'logarithmic' : 'linear',
    ...(beginAtZero ? { beginAtZero } : {}),
    title: { display: true, text: axis.title },
    ticks: { maxTicksLimit, ...(tick ? { callback: (value: number | string) => tick(Number(value)) } : {}) },
  } as ScaleOptions<'linear' | 'logarithmic'>;
}

export function lineOptions(axes: { x: AxisSpec; y: AxisSpec; legend: boolean }): ChartOptions<'line'> {
  return {
    animation: false,
    parsing: false,
    normalized: true,
    responsive: true,
    maintainAspectRatio: false,
    interaction: { mode: 'nearest', axis: 'x', intersect: false },
    scales: { x: scale(axes.x, 8, false), y: yScale(axes.y) },
    plugins: {
      legend: { display: axes.legend, labels: { boxWidth: 10, boxHeight: 2 } },
      decimation: { enabled: true, algorithm: 'lttb', samples: 600, threshold: 800 },
      tooltip: { animation: false },
    },
  };
}

export function lineDataset(series: { label: string; color: string }, data: XY[], options: { points?: boolean } = {}): ChartDataset<'line', XY[]> {
  return {
    label: series.label,
    data,
    borderColor: series.color,
    backgroundColor: series.color,
    borderWidth: 1.5,
    // A value with no neighbour is a dot, or it would not show at all (a one-second run, a drain after a pause).
    pointRadius: options.points ? 2 : (context) => (context.type === 'data' && standsAlone(context.dataset.data as XY[], context.dataIndex) ? 2.5 : 0),
    pointHitRadius: 4,
    spanGaps: false,
    normalized: true,
  };
}
