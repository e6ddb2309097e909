// Tests of thresholds: the grammar (units, aliases, regressions, every refusal with its reason) and
// the evaluation with exact values — medians over repeats, shares of the right whole, and baseline
// regressions judged by the Compare page's verdict (too few runs cannot tell, strict makes that fail).

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { RunSummary } from '../runs/run-summary-schema.ts';
import { evaluateThresholds, formatMeasured, parseThreshold, parseThresholds, type AnyThreshold, type ConfigurationRuns } from './thresholds.ts';

function rule(text: string): AnyThreshold {
  const parsed = parseThreshold(text);
  assert.ok(parsed.ok, `"${text}" should parse`);
  return parsed.threshold;
}

function refusal(text: string): string {
  const parsed = parseThreshold(text);
  assert.ok(!parsed.ok, `"${text}" should be refused`);
  return parsed.message;
}

interface SummaryFigures {
  rps?: number;
  p50Us?: number | null;
  p99Us?: number | null;
  maxUs?: number | null;
  meanUs?: number | null;
  answered?: number;
  ok2xx?: number;
  errors?: number;
  timeouts?: number;
  notSent?: number;
}

function summary(figures: SummaryFigures = {}): RunSummary {
  const answered = figures.answered ?? 1000;
  const ok2xx = figures.ok2xx ?? answered;
  const errors = figures.errors ?? 0;
  const timeouts = figures.timeouts ?? 0;
  const notSent = figures.notSent ?? 0;
  return RunSummary.parse({
    seconds: 10,
    requests: answered,
    bytes: 0,
    requestsPerSecond: figures.rps ?? 100,
    bytesPerSecond: 0,
    meanUs: figures.meanUs ?? 1000,
    stdDevUs: 10,
    p50Us: figures.p50Us === undefined ? 900 : figures.p50Us,
    p75Us: 1000,
    p90Us: 1100,
    p99Us: figures.p99Us === undefined ? 2000 : figures.p99Us,
    p999Us: 3000,
    maxUs: figures.maxUs === undefined ? 5000 : figures.maxUs,
    bands: [],
    errors: { timeout: timeouts, refused: errors, reset: 0, closed: 0, other: 0 },
    notSent: { 'pool-full': notSent, 'step-ended': 0 },
    status: { '1xx': 0, '2xx': ok2xx, '3xx': 0, '4xx': 0, '5xx': answered - ok2xx },
    non2xx: answered - ok2xx,
    failed: answered - ok2xx + errors + timeouts,
    books: { scheduled: answered + errors + timeouts + notSent, answered, errors, timeouts, notSent, inFlight: 0, balanced: true },
  });
}

function configuration(summaries: Array<RunSummary | null>, baseline: Array<RunSummary | null> | null = null): ConfigurationRuns {
  return { key: 'node:async', label: 'node (async)', summaries, baseline };
}

describe('parseThreshold', () => {
  test('reads latency bounds with their units, a bare number being milliseconds as in k6', () => {
    assert.deepEqual(rule('p99 < 20ms'), { text: 'p99 < 20ms', metric: 'p99', op: '<', value: 20, unit: 'ms' });
    assert.deepEqual(rule('p50<=5ms'), { text: 'p50<=5ms', metric: 'p50', op: '<=', value: 5, unit: 'ms' });
    assert.deepEqual(rule('max < 1s'), { text: 'max < 1s', metric: 'max', op: '<', value: 1, unit: 's' });
    assert.deepEqual(rule('mean < 800us'), { text: 'mean < 800us', metric: 'mean', op: '<', value: 800, unit: 'us' });
    assert.deepEqual(rule('  p(99.9) < 250 '), { text: 'p(99.9) < 250', metric: 'p999', op: '<', value: 250, unit: 'ms' });
    assert.equal((rule('avg < 1.5µs') as { unit: string }).unit, 'us');
    assert.equal(rule('med < 2ms').metric, 'p50');
  });

  test('reads rates, shares and counts', () => {
    assert.deepEqual(rule('rps > 40000'), { text: 'rps > 40000', metric: 'rps', op: '>', value: 40000, unit: 'rps' });
    assert.deepEqual(rule('errors < 0.1%'), { text: 'errors < 0.1%', metric: 'errors', op: '<', value: 0.1, unit: '%' });
    assert.deepEqual(rule('not_sent == 0'), { text: 'not_sent == 0', metric: 'not_sent', op: '==', value: 0, unit: 'count' });
    assert.deepEqual(rule('timeouts == 0'), { text: 'timeouts == 0', metric: 'timeouts', op: '==', value: 0, unit: 'count' });
    assert.equal((rule('errors <= 3') as { unit: string }).unit, 'count');
  });

  test('reads regressions against a baseline', () => {
    assert.deepEqual(rule('p99 regression < 10%'), { text: 'p99 regression < 10%', metric: 'p99', kind: 'regression', op: '<', percent: 10, baseline: true });
    assert.deepEqual(rule('rps regression <= 5%'), { text: 'rps regression <= 5%', metric: 'rps', kind: 'regression', op: '<=', percent: 5, baseline: true });
  });

  test('refuses what is not a rule, each with what to write instead', () => {
    assert.match(refusal('p99 is fast'), /is not a threshold: write a metric, a comparison and a bound/);
    assert.match(refusal('p95 < 20ms'), /"p95" is not a metric: use one of p50, p75, p90, p99, p999, max, mean, rps, errors, not_sent, timeouts/);
    assert.match(refusal('p99 < 20kb'), /p99 is a time: write it in us, ms or s/);
    assert.match(refusal('rps > 40ms'), /rps is a number of requests per second/);
    assert.match(refusal('errors < 120%'), /a share is at most 100%/);
    assert.match(refusal('not_sent == 0ms'), /not_sent is a count, or a share in %/);
    assert.match(refusal('p99 < -5ms'), /the bound must be a number of 0 or more/);
    assert.match(refusal('p99 regression > 10%'), /a regression takes "<" or "<="/);
    assert.match(refusal('p99 regression < 10ms'), /a regression is in percent/);
    assert.match(refusal('errors regression < 10%'), /a regression is measured on p50, p75, p90, p99, p999, max, mean, rps only/);
  });

  test('parseThresholds keeps the rules and reports every bad one', () => {
    const parsed = parseThresholds(['p99 < 20ms', 'nope', 'rps > 1', 'p95 < 1']);
    assert.deepEqual(parsed.thresholds.map((threshold) => threshold.text), ['p99 < 20ms', 'rps > 1']);
    assert.equal(parsed.problems.length, 2);
  });
});

describe('evaluateThresholds: absolute rules', () => {
  test('latency in the rule unit, with the bound and the verdict', () => {
    const [holds, fails] = evaluateThresholds([rule('p99 < 20ms'), rule('p99 < 1500us')], [configuration([summary({ p99Us: 2000 })])]);
    assert.deepEqual(holds, {
      threshold: 'p99 < 20ms',
      configuration: 'node:async',
      label: 'node (async)',
      status: 'holds',
      measured: 2,
      measuredText: '2ms',
      bound: '< 20ms',
      message: 'p99 = 2ms, within < 20ms',
      failsRun: false,
    });
    assert.equal(fails!.status, 'fails');
    assert.equal(fails!.measured, 2000);
    assert.equal(fails!.message, 'p99 = 2000us, not < 1500us');
    assert.equal(fails!.failsRun, true);
  });

  test('with repeats the value is the median of the runs', () => {
    const [result] = evaluateThresholds([rule('rps > 150')], [configuration([summary({ rps: 100 }), summary({ rps: 300 }), summary({ rps: 200 })])]);
    assert.equal(result!.measured, 200);
    assert.equal(result!.status, 'holds');
    assert.equal(result!.message, 'rps = 200 rps (median of 3 runs), within > 150 rps');
  });

  test('errors are the failed share of the requests sent: non-2xx, connection errors and timeouts', () => {
    // 990 answered (5 of them 5xx) + 6 refused + 4 timeouts = 1000 sent, 15 failed; 20 not sent stay out.
    const run = summary({ answered: 990, ok2xx: 985, errors: 6, timeouts: 4, notSent: 20 });
    const [share, count, timeouts, notSent, notSentShare] = evaluateThresholds(
      [rule('errors < 1%'), rule('errors <= 15'), rule('timeouts == 0'), rule('not_sent == 0'), rule('not_sent < 5%')],
      [configuration([run])],
    );
    assert.equal(share!.measured, 1.5);
    assert.equal(share!.status, 'fails');
    assert.equal(share!.measuredText, '1.5%');
    assert.equal(count!.measured, 15);
    assert.equal(count!.status, 'holds');
    assert.equal(timeouts!.measured, 4);
    assert.equal(timeouts!.status, 'fails');
    assert.equal(notSent!.measured, 20);
    assert.equal(notSent!.status, 'fails');
    // 20 of 1020 scheduled.
    assert.equal(notSentShare!.measured, (20 / 1020) * 100);
    assert.equal(notSentShare!.status, 'holds');
  });

  test('a run that measured nothing cannot tell, and that fails the run', () => {
    const [latency, errors] = evaluateThresholds([rule('p99 < 20ms'), rule('errors < 1%')], [configuration([null, summary({ p99Us: null, answered: 0 })])]);
    assert.equal(latency!.status, 'cant-tell');
    assert.equal(latency!.measured, null);
    assert.equal(latency!.failsRun, true);
    assert.equal(errors!.status, 'cant-tell');
  });

  test('every rule on every configuration, rule by rule', () => {
    const other: ConfigurationRuns = { key: 'node:sync', label: 'node (sync)', summaries: [summary({ rps: 50 })], baseline: null };
    const results = evaluateThresholds([rule('rps > 60'), rule('p99 < 5ms')], [configuration([summary()]), other]);
    assert.deepEqual(
      results.map((result) => [result.threshold, result.configuration, result.status]),
      [
        ['rps > 60', 'node:async', 'holds'],
        ['rps > 60', 'node:sync', 'fails'],
        ['p99 < 5ms', 'node:async', 'holds'],
        ['p99 < 5ms', 'node:sync', 'holds'],
      ],
    );
  });
});

describe('evaluateThresholds: regressions against a baseline', () => {
  const p99s = (values: number[]) => values.map((p99Us) => summary({ p99Us }));
  const rpss = (values: number[]) => values.map((rps) => summary({ rps }));
  const baselineP99 = [1000, 1010, 990, 1005, 995];

  test('a real regression beyond the bound fails, with the ratio as a percentage and its interval', () => {
    const [result] = evaluateThresholds([rule('p99 regression < 10%')], [configuration(p99s([1200, 1210, 1190, 1205, 1195]), p99s(baselineP99))]);
    assert.equal(result!.status, 'fails');
    assert.equal(result!.failsRun, true);
    assert.ok(Math.abs(result!.measured! - 20) < 0.01, `measured ${result!.measured}`);
    assert.match(result!.message, /^p99 regression 20% \(95 % CI 1\d\.\d+–2\d\.\d+%, 5 runs against 5\): a real regression beyond the bound$/);
  });

  test('a real regression within the bound holds', () => {
    const [result] = evaluateThresholds([rule('p99 regression < 10%')], [configuration(p99s([1050, 1060, 1040, 1055, 1045]), p99s(baselineP99))]);
    assert.equal(result!.status, 'holds');
    assert.match(result!.message, /a real regression within the bound$/);
  });

  test('a large but uncertain change is no verdict and holds', () => {
    const [result] = evaluateThresholds([rule('p99 regression < 10%')], [configuration(p99s([600, 2000, 900, 1800, 1400]), p99s(baselineP99))]);
    assert.ok(result!.measured! > 10);
    assert.equal(result!.status, 'holds');
    assert.match(result!.message, /no real change shown$/);
  });

  test('for rps the worse direction is down', () => {
    const [down, up] = evaluateThresholds(
      [rule('rps regression < 5%')],
      [configuration(rpss([90, 91, 89, 90.5, 89.5]), rpss([100, 101, 99, 100.5, 99.5])), configuration(rpss([120, 121, 119, 120.5, 119.5]), rpss([100, 101, 99, 100.5, 99.5]))],
    );
    assert.equal(down!.status, 'fails');
    assert.ok(Math.abs(down!.measured! - 10) < 0.01, `measured ${down!.measured}`);
    assert.equal(up!.status, 'holds');
    assert.ok(up!.measured! < 0);
    assert.match(up!.message, /better than the baseline$/);
  });

  test('too few runs cannot tell: it passes unless the baseline is strict', () => {
    const rules = [rule('p99 regression < 10%')];
    const runs = [configuration(p99s([1500, 1500]), p99s([1000, 1000]))];
    const [lenient] = evaluateThresholds(rules, runs);
    assert.equal(lenient!.status, 'cant-tell');
    assert.ok(Math.abs(lenient!.measured! - 50) < 1e-9, `measured ${lenient!.measured}`);
    assert.equal(lenient!.failsRun, false);
    assert.match(lenient!.message, /^p99 regression 50% by the point estimate, but too few runs for a verdict \(n = 2 and 2; 5 a side needed\)$/);
    const [strict] = evaluateThresholds(rules, runs, { strictBaseline: true });
    assert.equal(strict!.status, 'cant-tell');
    assert.equal(strict!.failsRun, true);
  });

  test('no baseline, or none of this configuration, cannot tell', () => {
    const [none] = evaluateThresholds([rule('p99 regression < 10%')], [configuration(p99s([1000]), null)]);
    assert.equal(none!.status, 'cant-tell');
    assert.match(none!.message, /no baseline was given/);
    const [missing] = evaluateThresholds([rule('p99 regression < 10%')], [configuration(p99s([1000]), [])]);
    assert.match(missing!.message, /the baseline has no measured run of node \(async\)/);
  });
});

test('formatMeasured keeps integers and three significant digits', () => {
  assert.deepEqual([formatMeasured(40000), formatMeasured(123.456), formatMeasured(12.345), formatMeasured(1.2345), formatMeasured(0.12345)], ['40000', '123', '12.3', '1.23', '0.123']);
});
