// The charts of a session, live on the Run page and in replay: which figure of each second each
// chart draws, in which unit and colour, and whether it may switch to a log axis (latency up to each
// second's slowest answer, the drain's late answers included, so the chart reaches the table's max;
// the drain is no second of the window, so it has no requests/s; the requests scheduled per second
// beside those answered); the server's own story (each core, its threads and the host's run queue,
// its context switches, TCP retransmits and a full accept queue; the runtime's GC pauses and heap after
// GC (a JVM's or a Node server's), a Node server's event-loop delay and, beside its context switches,
// how many of them its event-loop monitor's timer may be, for a session whose readings have them); with several load
// clients, on demand, each client's requests/s and p99 beside the merged ones; and where the steps
// start, marked on every chart.

import type { LivePoint, LiveStep } from '../../../../app/runs/runs.ts';
import type { SeriesSpec, StepMarker } from '../../common/chart-series.ts';

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
  {
    id: 'rps',
    title: 'Requests per second',
    unit: 'req/s',
    // Scheduled beside answered: an open model's rate that the server does not keep up with shows as the gap.
    series: [line('req/s', '#2f6fed', (p) => (p.drain ? null : p.rps)), line('scheduled/s', '#4a5568', (p) => (p.drain ? null : (p.countsPerS?.scheduled ?? null)))],
  },
  { id: 'latency', title: 'Latency', unit: 'ms', log: true, series: [line('p50', '#1f9d55', (p) => ms(p.p50Us)), line('p90', '#d69e2e', (p) => ms(p.p90Us)), line('p99', '#c2362b', (p) => ms(p.p99Us)), line('max', '#6b46c1', (p) => ms(p.maxUs ?? null))] },
  { id: 'errors', title: 'Errors per second', unit: 'errors/s', series: [line('errors/s', '#c2362b', (p) => p.errorsPerS)] },
  { id: 'cpu', title: 'CPU', unit: '%', series: [line('client', '#805ad5', (p) => percent(p.clientCpu)), line('server', '#dd6b20', (p) => percent(p.serverCpu))] },
  { id: 'memory', title: 'Server memory', unit: 'MB', series: [line('server process RSS', '#319795', (p) => mb(p.serverRssBytes)), line('host used', '#718096', (p) => mb(p.serverMemUsedBytes))] },
  { id: 'network', title: 'Server network', unit: 'MB/s', series: [line('rx', '#3182ce', (p) => mb(p.rxBytesPerS)), line('tx', '#d53f8c', (p) => mb(p.txBytesPerS))] },
  {
    id: 'server-threads',
    title: 'Server threads and run queue',
    unit: 'count',
    series: [line('server threads', '#2c7a7b', (p) => p.server?.threads ?? null), line('runnable on the host', '#975a16', (p) => p.server?.runQueue ?? null)],
  },
  {
    id: 'server-switches',
    title: 'Server context switches',
    unit: 'switches/s',
    series: [line('voluntary (waited)', '#3182ce', (p) => p.server?.voluntarySwitchesPerS ?? null), line('involuntary (preempted)', '#c53030', (p) => p.server?.involuntarySwitchesPerS ?? null)],
  },
  {
    id: 'server-tcp',
    title: 'Server TCP: retransmits and full accept queue',
    unit: 'per s',
    series: [line('segments sent again', '#b7791f', (p) => p.server?.tcpRetransmitsPerS ?? null), line('accept queue full', '#9b2c2c', (p) => p.server?.listenOverflowsPerS ?? null)],
  },
];

/** The server's GC (a JVM's GC log, a Node server's monitor): the time paused in each second with its longest pause, the pauses, the heap each left. */
export const GC_CHARTS: RunChart[] = [
  {
    id: 'server-gc',
    title: 'Server GC pauses',
    unit: 'ms',
    series: [line('paused in the second', '#c05621', (p) => p.server?.gcPauseMs ?? null), line('longest pause', '#9b2c2c', (p) => p.server?.gcLongestPauseMs ?? null)],
  },
  { id: 'server-gc-count', title: 'Server GC pauses per second', unit: 'pauses', series: [line('pauses', '#975a16', (p) => p.server?.gcPauses ?? null)] },
  // A point per second that ended a pause: the heap in use just after it.
  { id: 'server-heap', title: 'Server heap after GC', unit: 'MB', series: [line('heap after GC', '#2c7a7b', (p) => mb(p.server?.heapAfterGcBytes ?? null))] },
];

/** A Node server's event-loop delay, from the monitor its start preloads: how late its loop ran a timer. */
export const EVENT_LOOP_CHART: RunChart = {
  id: 'server-event-loop',
  title: 'Server event-loop delay (Node)',
  unit: 'ms',
  log: true,
  series: [line('p50', '#1f9d55', (p) => p.server?.eventLoopDelayP50Ms ?? null), line('p99', '#c2362b', (p) => p.server?.eventLoopDelayP99Ms ?? null), line('max', '#6b46c1', (p) => p.server?.eventLoopDelayMaxMs ?? null)],
};

/**
 * A Node server's context switches with its event-loop monitor's timer runs beside them: each run
 * may have woken an idle loop, so up to that many of the voluntary switches may be the monitor's.
 */
const MONITOR_WAKES = line("up to this many waits: the event-loop monitor's timer", '#a0aec0', (p) => p.server?.monitorWakesPerS ?? null);

/** Which of a runtime's own figures a session's readings carry. */
export interface RuntimeFigures {
  gc: boolean;
  eventLoop: boolean;
}

/**
 * The charts with the runtime's own (GC, event loop) after the server's threads chart, for the figures
 * the readings have; with a Node server's monitor, its timer runs drawn on the context switches chart.
 */
export function withRuntimeCharts(charts: readonly RunChart[], runtime: RuntimeFigures): RunChart[] {
  const added = [...(runtime.gc ? GC_CHARTS : []), ...(runtime.eventLoop ? [EVENT_LOOP_CHART] : [])];
  if (added.length === 0) return [...charts];
  const shown = runtime.eventLoop ? charts.map((chart) => (chart.id === 'server-switches' ? { ...chart, series: [...chart.series, MONITOR_WAKES] } : chart)) : [...charts];
  const at = shown.findIndex((chart) => chart.id === 'server-threads');
  return [...shown.slice(0, at + 1), ...added, ...shown.slice(at + 1)];
}

/** Colours of the server's cores on the per-core chart, core 0 first. */
const CORE_COLORS = ['#dd6b20', '#3182ce', '#38a169', '#805ad5', '#d53f8c', '#319795', '#b7791f', '#718096'];
/** Cores drawn one line each; a bigger server host's are too many lines to read, so its busiest and the average stand in. */
export const MAX_CHARTED_CORES = 8;

/**
 * The server host's CPU per core, after the CPU chart: a line per core (up to MAX_CHARTED_CORES), else
 * the busiest core and the average. Null for a session whose readings have no cores (older Benchlab).
 */
export function serverCoresChart(cores: number): RunChart | null {
  if (cores === 0) return null;
  const series =
    cores <= MAX_CHARTED_CORES
      ? Array.from({ length: cores }, (_, core) => line(`core ${core}`, CORE_COLORS[core % CORE_COLORS.length]!, (p) => percent(p.server?.coreCpu[core] ?? null)))
      : [
          line('busiest core', '#c53030', (p) => (p.server?.coreCpu.length ? percent(Math.max(...p.server.coreCpu)) : null)),
          line('average', '#718096', (p) => (p.server?.coreCpu.length ? percent(p.server.coreCpu.reduce((sum, busy) => sum + busy, 0) / p.server.coreCpu.length) : null)),
        ];
  return { id: 'server-cores', title: cores <= MAX_CHARTED_CORES ? 'Server CPU per core' : `Server CPU: busiest of ${cores} cores`, unit: '%', series };
}

/** The charts with the per-core chart placed after the CPU chart, when the readings have cores. */
export function withServerCores(charts: readonly RunChart[], cores: number): RunChart[] {
  const perCore = serverCoresChart(cores);
  if (!perCore) return [...charts];
  const at = charts.findIndex((chart) => chart.id === 'cpu');
  return [...charts.slice(0, at + 1), perCore, ...charts.slice(at + 1)];
}

/** One colour per client, apart from the merged series' colours. */
const CLIENT_COLORS = ['#63b3ed', '#f6ad55', '#68d391', '#b794f4', '#f687b3', '#4fd1c5', '#fc8181', '#a0aec0'];

/** The charts with each client's requests/s (on the requests chart) and p99 (on the latency chart) added, from LivePoint.clients. */
export function perClientCharts(clients: ReadonlyArray<{ index: number; name: string }>): RunChart[] {
  const part = (point: LivePoint, index: number) => point.clients?.find((entry) => entry.clientIndex === index);
  const color = (index: number) => CLIENT_COLORS[index % CLIENT_COLORS.length]!;
  return RUN_CHARTS.map((chart) => {
    if (chart.id === 'rps') return { ...chart, series: [...chart.series, ...clients.map((client) => line(`${client.name} req/s`, color(client.index), (p) => part(p, client.index)?.rps ?? null))] };
    if (chart.id === 'latency') return { ...chart, series: [...chart.series, ...clients.map((client) => line(`${client.name} p99`, color(client.index), (p) => ms(part(p, client.index)?.p99Us ?? null)))] };
    return chart;
  });
}

/** The starts of a session's steps (none for a single step); replay passes how far it has played. */
export function stepMarkers(steps: readonly LiveStep[], until = Infinity): StepMarker[] {
  if (steps.length < 2) return [];
  return steps.filter((step) => step.startedAtS !== null && step.startedAtS <= until).map((step) => ({ t: step.startedAtS!, label: step.label }));
}
