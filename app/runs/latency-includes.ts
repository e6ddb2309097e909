// What a run's latency includes, in words, and its request phases as ab's report lays them out
// (connect, waiting, processing, total: min, mean, sd, median, p99, max). One home for the wording,
// so the Run page, replay, Compare, the PDF, the CLI and the exports say the same. No HDR here: the
// summary's phases are already figures.

import type { LatencyPhases, PhaseStats } from './run-summary-schema.ts';

export type LoadModel = 'closed' | 'open';

export interface PhaseRow {
  key: 'connect' | 'waiting' | 'processing' | 'total';
  label: string;
  /** What the row measures, for a tooltip or a footnote. */
  means: string;
  stats: PhaseStats;
}

/** ab's rows, in ab's order of meaning: connect, waiting, processing, total. */
export function phaseRows(phases: LatencyPhases): PhaseRow[] {
  return [
    { key: 'connect', label: 'Connect', means: 'each connection opened: from the start of the connect to established (TLS included)', stats: phases.connect },
    { key: 'waiting', label: 'Waiting', means: 'each answer: from the request written to the first byte of its answer', stats: phases.waiting },
    { key: 'processing', label: 'Processing', means: 'each answer: its total less the connect it paid', stats: phases.processing },
    { key: 'total', label: 'Total', means: 'the headline latency', stats: phases.total },
  ];
}

/** The load model of a stored step (`{ load: { model } }` or a load itself); null when unknown. */
export function modelOf(stepOrLoad: unknown): LoadModel | null {
  const value = stepOrLoad as { model?: unknown; load?: { model?: unknown } } | null | undefined;
  const model = value?.model ?? value?.load?.model;
  return model === 'closed' || model === 'open' ? model : null;
}

function ms(us: number | null): string {
  if (us === null) return '–';
  const value = us / 1000;
  return `${value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2)} ms`;
}

/**
 * What the headline latency includes, for one run: with a connection per request, the connect; with
 * keep-alive, the answer only, the connects shown apart; in the open model, the wait for a
 * connection too. `phases` null: recorded before the phases were measured.
 */
export function describeLatencyIncludes(phases: LatencyPhases | null | undefined, model: LoadModel | null): string {
  const from =
    model === 'open'
      ? 'from each request’s intended send time (a wait for a free connection included)'
      : model === 'closed'
        ? 'from each request’s write'
        : 'from each request’s write (closed model) or intended send time (open model)';
  if (!phases) return `Latency runs ${from}; its connect was not measured apart (recorded before Benchlab measured the phases).`;
  const connect = phases.connect.count > 0 ? ` (connect p50 ${ms(phases.connect.p50Us)}, max ${ms(phases.connect.maxUs)})` : '';
  if (phases.answered === 0) return `Latency runs ${from}; no answer was measured.`;
  if (phases.withConnect === 0) {
    // Connections opened during the warm-up are not in the window: then there is no connect to show.
    if (phases.connect.count === 0) return `Keep-alive: latency runs ${from} on an open connection; no connection was opened in the measured window.`;
    return `Keep-alive: latency runs ${from} on an open connection; the ${phases.connect.count.toLocaleString('en-US')} connects${connect} are not in it, shown apart.`;
  }
  const start = model === 'open' ? from : 'from the start of its connect';
  if (phases.withConnect >= phases.answered) {
    return `Every request opened its own connection: latency runs ${start}, so it includes the connect${connect}, as ab's total does.`;
  }
  const share = ((phases.withConnect / phases.answered) * 100).toFixed(phases.withConnect / phases.answered < 0.01 ? 2 : 1);
  return (
    `${phases.withConnect.toLocaleString('en-US')} of ${phases.answered.toLocaleString('en-US')} answers (${share} %) opened their own connection and their latency includes its connect${connect}; ` +
    `the others ran ${from} on a connection kept alive.`
  );
}

/** ab's table as text (CLI, exports): one line per phase with min, mean, sd, median, p99 and max in ms. */
export function phasesText(phases: LatencyPhases): string[] {
  const cell = (us: number | null) => (us === null ? '-' : (us / 1000).toFixed(2));
  const header = ['', 'n', 'min', 'mean', '[+/-sd]', 'median', 'p99', 'max'];
  const rows = phaseRows(phases).map((row) => [
    `${row.label}:`,
    row.stats.count.toLocaleString('en-US'),
    cell(row.stats.minUs),
    cell(row.stats.meanUs),
    cell(row.stats.stdDevUs),
    cell(row.stats.p50Us),
    cell(row.stats.p99Us),
    cell(row.stats.maxUs),
  ]);
  const widths = header.map((_, c) => Math.max(...[header, ...rows].map((row) => row[c]!.length)));
  return [header, ...rows].map((row) => row.map((text, c) => (c === 0 ? text.padEnd(widths[c]!) : text.padStart(widths[c]!))).join('  ').trimEnd());
}

/** One line for a run beside others (Compare, the PDF): the phases' medians, then what its latency includes. */
export function describePhasesBrief(phases: LatencyPhases | null | undefined, model: LoadModel | null): string {
  if (!phases) return describeLatencyIncludes(phases, model);
  const medians = phaseRows(phases)
    .filter((row) => row.stats.count > 0)
    .map((row) => `${row.label.toLowerCase()} p50 ${ms(row.stats.p50Us)}`)
    .join(' · ');
  return `${medians}. ${describeLatencyIncludes(phases, model)}`;
}
