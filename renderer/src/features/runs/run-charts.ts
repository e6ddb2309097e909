// The charts of a session, live on the Run page and in replay: which figure of each second each
// chart draws, in which unit and colour, and whether it may switch to a log axis; and where the
// steps start, marked on every chart.

import type { LivePoint, LiveStep } from '../../../../app/runs/runs.ts';
import type { SeriesSpec, StepMarker } from '../../common/streaming-chart.ts';

export interface RunChart {
  id: string;
  title: string;
  unit: string;
  series: SeriesSpec[];
  /** Offered on a log axis (the Run page's "Latency on a log axis"). */
  log?: boolean;
}

const ms = (us: number | null) => (us === null ? null : us / 1000);
const mb = (bytes: number | null) => (bytes === null ? null : bytes / 1e6);
const percent = (share: number | null) => (share === null ? null : share * 100);
const line = (label: string, color: string, value: (point: LivePoint) => number | null): SeriesSpec => ({ label, color, value });

export const RUN_CHARTS: RunChart[] = [
  { id: 'rps', title: 'Requests per second', unit: 'req/s', series: [line('req/s', '#2f6fed', (p) => p.rps)] },
  { id: 'latency', title: 'Latency', unit: 'ms', log: true, series: [line('p50', '#1f9d55', (p) => ms(p.p50Us)), line('p90', '#d69e2e', (p) => ms(p.p90Us)), line('p99', '#c2362b', (p) => ms(p.p99Us))] },
  { id: 'errors', title: 'Errors per second', unit: 'errors/s', series: [line('errors/s', '#c2362b', (p) => p.errorsPerS)] },
  { id: 'cpu', title: 'CPU', unit: '%', series: [line('client', '#805ad5', (p) => percent(p.clientCpu)), line('server', '#dd6b20', (p) => percent(p.serverCpu))] },
  { id: 'memory', title: 'Server memory', unit: 'MB', series: [line('server process RSS', '#319795', (p) => mb(p.serverRssBytes)), line('host used', '#718096', (p) => mb(p.serverMemUsedBytes))] },
  { id: 'network', title: 'Server network', unit: 'MB/s', series: [line('rx', '#3182ce', (p) => mb(p.rxBytesPerS)), line('tx', '#d53f8c', (p) => mb(p.txBytesPerS))] },
];

/** The starts of a session's steps (none for a single step); replay passes how far it has played. */
export function stepMarkers(steps: readonly LiveStep[], until = Infinity): StepMarker[] {
  if (steps.length < 2) return [];
  return steps.filter((step) => step.startedAtS !== null && step.startedAtS <= until).map((step) => ({ t: step.startedAtS!, label: step.label }));
}
