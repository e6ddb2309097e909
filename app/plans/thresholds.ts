// Thresholds: pass/fail rules on a plan's results for CI, written as k6 users write them —
// `p99 < 20ms`, `rps > 40000`, `errors < 0.1%`, `not_sent == 0` — and against a baseline,
// `p99 regression < 10%`. Parsing (one string → a rule or a one-line reason) and evaluation
// (rules × configurations → holds / fails / can't tell, with the measured value and the bound).
//
// What the metrics read, from a configuration's RunSummary (app/runs/run-summary-schema.ts):
// - p50 … max, mean: the run's latency from its merged histogram. A bare number is milliseconds (k6's
//   default); `us`/`µs`, `ms` and `s` say so.
// - rps: answers per second of the measured window.
// - errors: the summary's `failed` (non-2xx answers, connection errors and timeouts: the seeds' KO);
//   as a share (`%`) of the requests sent (answered + errors + timeouts), or a count without a unit.
// - timeouts: requests with no answer within the timeout; a count, or a share of the requests sent.
// - not_sent: scheduled requests never sent; a count, or a share of the requests scheduled.
// With repeats a configuration's value is the median over its repeats.
//
// Baseline rules compare the repeats with the baseline's runs of the same configuration using the
// Compare page's verdict (compare-stats.ts ratioVerdict: the 95 % interval of the ratio of geometric
// means, given from 5 runs a side). A regression is the worse direction of the metric (latency up,
// rps down) in percent of the baseline. It fails only when the verdict shows a real change in the
// worse direction and the measured regression is beyond the bound; fewer runs than a verdict needs
// (or no baseline run of the configuration) is "can't tell", which fails only when the caller asks
// for a strict baseline. An absolute rule that has nothing to read (no answer measured) is "can't
// tell" too, and that always fails: a CI gate must not pass on a run that measured nothing.

import { median } from '../common/median.ts';
import { ratioVerdict, type RatioVerdict } from '../sessions/compare-stats.ts';
import { ERROR_KINDS, NOT_SENT_REASONS, STATUS_CLASSES, sumKinds, type RunSummary } from '../runs/run-summary-schema.ts';

export const LATENCY_METRICS = ['p50', 'p75', 'p90', 'p99', 'p999', 'max', 'mean'] as const;
export const THRESHOLD_METRICS = [...LATENCY_METRICS, 'rps', 'errors', 'not_sent', 'timeouts'] as const;
export const BASELINE_METRICS = [...LATENCY_METRICS, 'rps'] as const;
export type ThresholdMetric = (typeof THRESHOLD_METRICS)[number];
export type BaselineMetric = (typeof BASELINE_METRICS)[number];
export type ThresholdOp = '<' | '<=' | '>' | '>=' | '==';
export type ThresholdUnit = 'ms' | 'us' | 's' | '%' | 'count' | 'rps';

export interface Threshold {
  text: string;
  metric: ThresholdMetric;
  op: ThresholdOp;
  /** The bound as written, in `unit`. */
  value: number;
  unit: ThresholdUnit;
  baseline?: false;
}

export interface BaselineThreshold {
  text: string;
  metric: BaselineMetric;
  kind: 'regression';
  op: '<' | '<=';
  /** The largest regression allowed, in percent of the baseline. */
  percent: number;
  baseline: true;
}

export type AnyThreshold = Threshold | BaselineThreshold;
export type ThresholdParse = { ok: true; threshold: AnyThreshold } | { ok: false; message: string };

/** Names k6 users also write, and spellings of ours, for the metric names above. */
const METRIC_ALIASES: Readonly<Record<string, ThresholdMetric>> = {
  'p(50)': 'p50', med: 'p50', median: 'p50', 'p(75)': 'p75', 'p(90)': 'p90', 'p(99)': 'p99', 'p(99.9)': 'p999', 'p99.9': 'p999', avg: 'mean',
  'not-sent': 'not_sent', notsent: 'not_sent', failed: 'errors', requests_per_second: 'rps',
};

const LATENCY_UNITS: Readonly<Record<string, ThresholdUnit>> = { ms: 'ms', us: 'us', µs: 'us', s: 's' };
const SYNTAX = /^\s*([a-z_][a-z0-9_().-]*?)\s*(regression\s*)?(<=|>=|==|<|>)\s*([+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?)\s*([a-zµ%/]*)\s*$/i;
const EXAMPLES = 'e.g. "p99 < 20ms", "rps > 40000", "errors < 0.1%", "not_sent == 0", "p99 regression < 10%"';

function metricOf(name: string): ThresholdMetric | null {
  const lower = name.toLowerCase();
  if ((THRESHOLD_METRICS as readonly string[]).includes(lower)) return lower as ThresholdMetric;
  return METRIC_ALIASES[lower] ?? null;
}

function isLatency(metric: ThresholdMetric): boolean {
  return (LATENCY_METRICS as readonly string[]).includes(metric);
}

export function parseThreshold(text: string): ThresholdParse {
  const match = SYNTAX.exec(text);
  if (!match) return { ok: false, message: `"${text}" is not a threshold: write a metric, a comparison and a bound, ${EXAMPLES}` };
  const [, name, regression, op, number, rawUnit] = match as unknown as [string, string, string | undefined, ThresholdOp, string, string];
  const metric = metricOf(name);
  if (!metric) return { ok: false, message: `"${name}" is not a metric: use one of ${THRESHOLD_METRICS.join(', ')}` };
  const value = Number(number);
  if (!Number.isFinite(value) || value < 0) return { ok: false, message: `"${text}": the bound must be a number of 0 or more` };
  const unit = rawUnit.toLowerCase();

  if (regression) {
    if (!(BASELINE_METRICS as readonly string[]).includes(metric)) return { ok: false, message: `"${text}": a regression is measured on ${BASELINE_METRICS.join(', ')} only` };
    if (op !== '<' && op !== '<=') return { ok: false, message: `"${text}": a regression takes "<" or "<=" (the largest regression allowed)` };
    if (unit !== '%') return { ok: false, message: `"${text}": a regression is in percent, e.g. "${metric} regression < 10%"` };
    return { ok: true, threshold: { text: text.trim(), metric: metric as BaselineMetric, kind: 'regression', op, percent: value, baseline: true } };
  }

  const threshold = (unit: ThresholdUnit): ThresholdParse => ({ ok: true, threshold: { text: text.trim(), metric, op, value, unit } });
  if (isLatency(metric)) {
    if (unit === '') return threshold('ms');
    const latencyUnit = LATENCY_UNITS[unit];
    return latencyUnit ? threshold(latencyUnit) : { ok: false, message: `"${text}": ${metric} is a time: write it in us, ms or s` };
  }
  if (metric === 'rps') return unit === '' || unit === '/s' || unit === 'rps' ? threshold('rps') : { ok: false, message: `"${text}": rps is a number of requests per second, without a unit` };
  if (unit === '%') return value > 100 ? { ok: false, message: `"${text}": a share is at most 100%` } : threshold('%');
  return unit === '' ? threshold('count') : { ok: false, message: `"${text}": ${metric} is a count, or a share in %` };
}

/** Parses several rules at once: the rules, and one message per string that is not one. */
export function parseThresholds(texts: readonly string[]): { thresholds: AnyThreshold[]; problems: string[] } {
  const thresholds: AnyThreshold[] = [];
  const problems: string[] = [];
  for (const text of texts) {
    const parsed = parseThreshold(text);
    if (parsed.ok) thresholds.push(parsed.threshold);
    else problems.push(parsed.message);
  }
  return { thresholds, problems };
}

// --- Evaluation --------------------------------------------------------------------------------------

/** One configuration (template + variant, and load step when the profile sweeps) with its runs. */
export interface ConfigurationRuns {
  /** Stable within a plan, e.g. "node:async" or "node:async @ c=100". */
  key: string;
  /** For people, e.g. "node (async)" or "node (async), c=100". */
  label: string;
  /** One summary per repeat; null where a repeat measured nothing. */
  summaries: ReadonlyArray<RunSummary | null>;
  /** The baseline's runs of the same configuration; null when no baseline was given. */
  baseline: ReadonlyArray<RunSummary | null> | null;
}

export type ThresholdStatus = 'holds' | 'fails' | 'cant-tell';

export interface ThresholdResult {
  threshold: string;
  configuration: string;
  label: string;
  status: ThresholdStatus;
  /** The measured value in the rule's unit (a regression: percent of the baseline, worse direction positive). */
  measured: number | null;
  /** The measured value as people read it, e.g. "23.4ms", "0.25%", "12.0% (95 % CI 8.1–16.2%)". */
  measuredText: string;
  /** The bound as written, e.g. "< 20ms". */
  bound: string;
  /** Why it holds, fails or cannot tell, in one line. */
  message: string;
  /** Whether this result fails the run: fails, or can't tell where that counts (see the header). */
  failsRun: boolean;
}

export interface EvaluateOptions {
  /** A baseline rule that cannot tell (too few runs, no baseline run) fails the run. */
  strictBaseline?: boolean;
}

const LATENCY_READ: Readonly<Record<(typeof LATENCY_METRICS)[number], (summary: RunSummary) => number | null>> = {
  p50: (s) => s.p50Us,
  p75: (s) => s.p75Us,
  p90: (s) => s.p90Us,
  p99: (s) => s.p99Us,
  p999: (s) => s.p999Us,
  max: (s) => s.maxUs,
  mean: (s) => s.meanUs,
};
const US_PER: Readonly<Record<'us' | 'ms' | 's', number>> = { us: 1, ms: 1000, s: 1_000_000 };

/** Requests sent and resolved: answered (any status), connection errors and timeouts. */
export function requestsSent(summary: RunSummary): number {
  return summary.books ? summary.books.answered + summary.books.errors + summary.books.timeouts : sumKinds(summary.status, STATUS_CLASSES) + sumKinds(summary.errors, ERROR_KINDS);
}

/** Scheduled requests never sent. */
export function requestsNotSent(summary: RunSummary): number {
  return summary.books ? summary.books.notSent : sumKinds(summary.notSent, NOT_SENT_REASONS);
}

/** A rule's metric of one run in the rule's unit; null when the run has nothing to read. */
export function measure(threshold: Threshold, summary: RunSummary | null): number | null {
  if (!summary) return null;
  const share = (part: number, whole: number) => (whole > 0 ? (part / whole) * 100 : null);
  switch (threshold.metric) {
    case 'rps':
      return summary.seconds > 0 ? summary.requestsPerSecond : null;
    case 'errors':
      return threshold.unit === '%' ? share(summary.failed, requestsSent(summary)) : summary.failed;
    case 'timeouts': {
      const timeouts = summary.errors.timeout ?? 0;
      return threshold.unit === '%' ? share(timeouts, requestsSent(summary)) : timeouts;
    }
    case 'not_sent':
      return threshold.unit === '%' ? share(requestsNotSent(summary), requestsSent(summary) + requestsNotSent(summary)) : requestsNotSent(summary);
    default: {
      const us = LATENCY_READ[threshold.metric](summary);
      return us === null ? null : us / US_PER[threshold.unit as 'us' | 'ms' | 's'];
    }
  }
}

/** The metric a baseline rule compares, in its natural unit (µs, requests/s). */
function baselineValue(metric: BaselineMetric, summary: RunSummary | null): number | null {
  if (!summary) return null;
  return metric === 'rps' ? (summary.seconds > 0 ? summary.requestsPerSecond : null) : LATENCY_READ[metric](summary);
}

function compare(value: number, op: ThresholdOp, bound: number): boolean {
  switch (op) {
    case '<':
      return value < bound;
    case '<=':
      return value <= bound;
    case '>':
      return value > bound;
    case '>=':
      return value >= bound;
    case '==':
      return value === bound;
  }
}

/** A number for people: integers as they are, others with three significant digits at most. */
export function formatMeasured(value: number): string {
  if (Number.isInteger(value)) return String(value);
  const abs = Math.abs(value);
  const digits = abs >= 100 ? 0 : abs >= 10 ? 1 : abs >= 1 ? 2 : 3;
  return String(Number(value.toFixed(digits)));
}

function unitSuffix(unit: ThresholdUnit): string {
  return unit === 'count' ? '' : unit === 'rps' ? ' rps' : unit;
}

function evaluateAbsolute(threshold: Threshold, configuration: ConfigurationRuns): ThresholdResult {
  const bound = `${threshold.op} ${formatMeasured(threshold.value)}${unitSuffix(threshold.unit)}`;
  const base = { threshold: threshold.text, configuration: configuration.key, label: configuration.label, bound };
  const values = configuration.summaries.map((summary) => measure(threshold, summary)).filter((value): value is number => value !== null);
  if (values.length === 0) {
    return { ...base, status: 'cant-tell', measured: null, measuredText: 'nothing measured', message: `${threshold.metric}: nothing was measured, so it cannot hold`, failsRun: true };
  }
  const measured = median(values);
  const measuredText = `${formatMeasured(measured)}${unitSuffix(threshold.unit)}`;
  const over = values.length > 1 ? ` (median of ${values.length} runs)` : '';
  const holds = compare(measured, threshold.op, threshold.value);
  return {
    ...base,
    status: holds ? 'holds' : 'fails',
    measured,
    measuredText,
    message: `${threshold.metric} = ${measuredText}${over}, ${holds ? 'within' : 'not'} ${bound}`,
    failsRun: !holds,
  };
}

/** Regression in percent of the baseline, worse direction positive, from the ratio B/A (this run / baseline). */
function regressionPercent(metric: BaselineMetric, ratio: number): number {
  return (metric === 'rps' ? 1 - ratio : ratio - 1) * 100;
}

function evaluateBaseline(threshold: BaselineThreshold, configuration: ConfigurationRuns, options: EvaluateOptions): ThresholdResult {
  const bound = `${threshold.op} ${formatMeasured(threshold.percent)}%`;
  const base = { threshold: threshold.text, configuration: configuration.key, label: configuration.label, bound };
  const cantTell = (measured: number | null, measuredText: string, message: string): ThresholdResult => ({
    ...base,
    status: 'cant-tell',
    measured,
    measuredText,
    message,
    failsRun: options.strictBaseline === true,
  });
  if (configuration.baseline === null) return cantTell(null, 'no baseline', `${threshold.metric} regression: no baseline was given (--baseline)`);
  const baseline = configuration.baseline.map((summary) => baselineValue(threshold.metric, summary)).filter((value): value is number => value !== null);
  const current = configuration.summaries.map((summary) => baselineValue(threshold.metric, summary)).filter((value): value is number => value !== null);
  if (baseline.length === 0) return cantTell(null, 'no baseline run', `${threshold.metric} regression: the baseline has no measured run of ${configuration.label}`);
  if (current.length === 0) return cantTell(null, 'nothing measured', `${threshold.metric} regression: nothing of ${configuration.label} was measured`);

  const verdict: RatioVerdict = ratioVerdict(baseline, current, { names: { a: 'the baseline', b: 'this run' } });
  if (verdict.ratio === null) return cantTell(null, 'no ratio', `${threshold.metric} regression: ${verdict.text}`);
  const measured = regressionPercent(threshold.metric, verdict.ratio);
  const measuredText = `${formatMeasured(measured)}%`;
  if (verdict.kind === 'too-few') {
    return cantTell(measured, measuredText, `${threshold.metric} regression ${measuredText} by the point estimate, but ${verdict.text}`);
  }
  // The interval's end nearest "no change" in the worse direction, for the message.
  const [worseLow, worseHigh] = threshold.metric === 'rps' ? [regressionPercent('rps', verdict.high!), regressionPercent('rps', verdict.low!)] : [regressionPercent(threshold.metric, verdict.low!), regressionPercent(threshold.metric, verdict.high!)];
  const interval = `95 % CI ${formatMeasured(worseLow)}–${formatMeasured(worseHigh)}%`;
  const worse = threshold.metric === 'rps' ? verdict.kind === 'lower' : verdict.kind === 'higher';
  const beyond = !compare(measured, threshold.op, threshold.percent);
  const fails = worse && beyond;
  const why = !worse ? (verdict.kind === 'no-difference' ? 'no real change shown' : 'better than the baseline') : beyond ? 'a real regression beyond the bound' : 'a real regression within the bound';
  return {
    ...base,
    status: fails ? 'fails' : 'holds',
    measured,
    measuredText: `${measuredText} (${interval})`,
    message: `${threshold.metric} regression ${measuredText} (${interval}, ${verdict.nB} runs against ${verdict.nA}): ${why}`,
    failsRun: fails,
  };
}

/** Every rule on every configuration, in rule order then configuration order. */
export function evaluateThresholds(thresholds: readonly AnyThreshold[], configurations: readonly ConfigurationRuns[], options: EvaluateOptions = {}): ThresholdResult[] {
  return thresholds.flatMap((threshold) =>
    configurations.map((configuration) => (threshold.baseline ? evaluateBaseline(threshold, configuration, options) : evaluateAbsolute(threshold, configuration))),
  );
}
