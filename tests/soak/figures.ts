// What one fault injection measured, and the table the soak prints per fault: min / median / max
// and how many injections each figure was measured in, never a pass/fail. A figure is null where it
// does not apply to the fault (a killed back end reports nothing live) or was not reached within
// its wait (then the table counts it as "not within the wait").

import { loadavg } from 'node:os';
import type { StoreCheck } from './store-check.ts';

export interface RevertCheck {
  bytes: boolean;
  mode: boolean;
  owner: boolean;
  liveValues: boolean;
}

export interface FaultFigures {
  /** 1-based number of this injection among its fault's. */
  repeat: number;
  /** When it was injected: ms after the run's first measured second (presets: the apply step). */
  injectedAt: string;
  /** `PRAGMA integrity_check` said ok. */
  integrityOk: boolean;
  /** Every stored run's books balance (the books audit's rules); null: no run. */
  booksBalanced: boolean | null;
  /** Whole seconds the agent measured before the cut-off that are not in the store; null: no run. */
  secondsLost: number | null;
  /** ms from the fault to the last request the server answered (kills of the back end). */
  loadStoppedMs: number | null;
  /** ms from the fault to the load agent's process being gone. */
  agentEndedMs: number | null;
  /** ms from the fault until `runs.live` (its `runs.state` events) said so; null: not within the wait. */
  reportedMs: number | null;
  /** What it said first. */
  reportedAs: string | null;
  /** What was left on the hosts once the fault settled: agents, pid files, other processes. */
  leftovers: string[];
  /** Presets: whether revert gave back what was there. */
  revert: RevertCheck | null;
  /** The machine's 1-minute load average when the fault was injected. */
  loadAverage: number;
  /** Figures only some faults have (named with their unit), and notes. */
  extra: Record<string, number | boolean | string | null>;
}

/** Figures a fault may not have; left out, they are null. */
type FaultOnly = 'booksBalanced' | 'secondsLost' | 'loadStoppedMs' | 'agentEndedMs' | 'reportedMs' | 'reportedAs' | 'revert';

/** One injection's figures, null for those it did not measure. */
export function faultFigures(figures: Omit<FaultFigures, FaultOnly> & Partial<Pick<FaultFigures, FaultOnly>>): FaultFigures {
  return { booksBalanced: null, secondsLost: null, loadStoppedMs: null, agentEndedMs: null, reportedMs: null, reportedAs: null, revert: null, ...figures };
}

/** The figures of a fault injected into a run `delay` ms after its first measured second: which, when, and what its store kept. */
export function runFaultFigures(repeat: number, delay: number, store: StoreCheck): Pick<FaultFigures, 'repeat' | 'injectedAt' | 'integrityOk' | 'booksBalanced'> {
  return {
    repeat,
    injectedAt: `${delay} ms after the first measured second`,
    integrityOk: store.integrityOk,
    booksBalanced: store.booksProblems === null ? null : store.booksProblems.length === 0,
  };
}

export function machineLoad(): number {
  return Math.round(loadavg()[0]! * 100) / 100;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

type Row = [figure: string, min: string, median: string, max: string, count: string];

function numberRow(figure: string, values: ReadonlyArray<number | null>, total: number, missing = 'not within the wait'): Row {
  const measured = values.filter((value): value is number => value !== null);
  if (measured.length === 0) return [figure, '—', '—', '—', `0/${total} (${missing})`];
  const round = (value: number) => String(Math.round(value * 100) / 100);
  const counted = measured.length === total ? String(total) : `${measured.length}/${total} (${total - measured.length} ${missing})`;
  return [figure, round(Math.min(...measured)), round(median(measured)), round(Math.max(...measured)), counted];
}

function countRow(figure: string, values: ReadonlyArray<boolean | null>, total: number): Row {
  const known = values.filter((value): value is boolean => value !== null);
  const yes = known.filter(Boolean).length;
  return [figure, '', '', '', known.length === 0 ? `— (0/${total} apply)` : `${yes}/${known.length}`];
}

/** The fault's table: one row per figure that applies to it. */
export function figuresTable(title: string, figures: readonly FaultFigures[]): string {
  const total = figures.length;
  const rows: Row[] = [['figure', 'min', 'median', 'max', 'n']];
  const column = <K extends keyof FaultFigures>(key: K) => figures.map((figure) => figure[key]);
  rows.push(countRow('integrity_check ok', column('integrityOk'), total));
  if (figures.some((figure) => figure.booksBalanced !== null)) rows.push(countRow('books balanced', column('booksBalanced'), total));
  if (figures.some((figure) => figure.secondsLost !== null)) rows.push(numberRow('seconds of samples lost', column('secondsLost'), total, 'no run'));
  if (figures.some((figure) => figure.agentEndedMs !== null)) rows.push(numberRow('load agent gone after (ms)', column('agentEndedMs'), total));
  if (figures.some((figure) => figure.loadStoppedMs !== null)) rows.push(numberRow('last request at the server after (ms)', column('loadStoppedMs'), total));
  if (figures.some((figure) => figure.reportedMs !== null || figure.reportedAs !== null)) rows.push(numberRow('runs.live reported it after (ms)', column('reportedMs'), total));
  rows.push(numberRow('leftovers on the hosts', figures.map((figure) => figure.leftovers.length), total));
  if (figures.some((figure) => figure.revert !== null)) {
    for (const key of ['bytes', 'mode', 'owner', 'liveValues'] as const) rows.push(countRow(`revert restored ${key === 'liveValues' ? 'live values' : key}`, figures.map((figure) => figure.revert?.[key] ?? null), total));
  }
  const extraKeys = [...new Set(figures.flatMap((figure) => Object.keys(figure.extra)))];
  for (const key of extraKeys) {
    const values = figures.map((figure) => figure.extra[key] ?? null);
    if (values.every((value) => value === null || typeof value === 'number')) rows.push(numberRow(key, values as Array<number | null>, total));
    else if (values.every((value) => value === null || typeof value === 'boolean')) rows.push(countRow(key, values as Array<boolean | null>, total));
  }
  rows.push(numberRow('machine load (1 min) at injection', column('loadAverage'), total));
  const widths = rows[0]!.map((_, index) => Math.max(...rows.map((row) => row[index]!.length)));
  const line = (row: Row) => row.map((cell, index) => (index === 0 ? cell.padEnd(widths[index]!) : cell.padStart(widths[index]!))).join('  ').trimEnd();
  const said = [...new Set(figures.map((figure) => figure.reportedAs).filter((text): text is string => text !== null))];
  const texts = figures.flatMap((figure) => Object.entries(figure.extra).flatMap(([key, value]) => (typeof value === 'string' ? [`${key}: ${value}`] : [])));
  const leftovers = [...new Set(figures.flatMap((figure) => figure.leftovers))];
  return [
    `${title} (×${total})`,
    ...rows.map(line),
    ...said.map((text) => `  reported as: ${text}`),
    ...[...new Set(texts)].map((text) => `  note: ${text}`),
    ...leftovers.map((text) => `  left: ${text}`),
  ].join('\n');
}
