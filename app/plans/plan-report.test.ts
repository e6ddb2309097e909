// Tests of the plan report: configurations from a plan's stages and runs (repeats, sweep steps,
// failed stages, the baseline matched by template, variant and step), the medians, the outcome,
// and the three formats — JSON stable and versioned, JUnit XML well-formed (parsed back by a small
// strict reader) with names holding < & " escaped, Markdown tables with pipes escaped.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { RunSummary } from '../runs/run-summary-schema.ts';
import type { PlanStage, PlanState } from './plan.ts';
import {
  buildPlanReport,
  figuresOf,
  planConfigurations,
  planReportJson,
  planReportJUnit,
  planReportMarkdown,
  summaryRows,
  thresholdLines,
  type ReportRun,
  type ReportTarget,
} from './plan-report.ts';
import { evaluateThresholds, parseThreshold, type AnyThreshold } from './thresholds.ts';

function summary(rps: number, p99Us: number, extra: { failed?: number; notSent?: number } = {}): RunSummary {
  const failed = extra.failed ?? 0;
  const notSent = extra.notSent ?? 0;
  return RunSummary.parse({
    seconds: 10, requests: 1000, bytes: 0, requestsPerSecond: rps, bytesPerSecond: 0,
    meanUs: 900, stdDevUs: 10, p50Us: 800, p75Us: 900, p90Us: 1000, p99Us, p999Us: p99Us, maxUs: p99Us * 2,
    bands: [], errors: { timeout: 0, refused: failed }, notSent: { 'pool-full': notSent }, status: { '2xx': 1000 },
    failed,
    books: { scheduled: 1000 + failed + notSent, answered: 1000, errors: failed, timeouts: 0, notSent, inFlight: 0, balanced: true },
  });
}

function stage(id: string, kind: PlanStage['kind'], target: number | null, extra: Partial<PlanStage> = {}): PlanStage {
  return { id, kind, label: id, status: 'done', detail: null, target, round: null, sessionId: null, estimateS: 1, startedAt: null, endedAt: null, ...extra };
}

function plan(stages: PlanStage[], status: PlanState['status'] = 'completed', message: string | null = null): PlanState {
  return {
    id: 3, name: 'Node async vs sync', status, stages,
    sessionIds: stages.filter((entry) => entry.sessionId !== null).map((entry) => entry.sessionId!),
    message, startedAt: '2025-05-01T10:00:00.000Z', endedAt: '2025-05-01T10:01:30.000Z', estimateS: 90,
  };
}

const targets: ReportTarget[] = [
  { templateId: 'node', variant: 'async', knobs: {}, label: 'Node.js · async' },
  { templateId: 'node', variant: 'sync', knobs: { workers: 2 }, label: 'Node.js · sync' },
];

const twoTargets = plan([
  stage('load-0', 'load', 0, { sessionId: 11 }),
  stage('load-1', 'load', 1, { sessionId: 12 }),
]);

const storedRuns: Record<number, ReportRun[]> = {
  11: [{ templateId: 'node', variant: 'async', stepLabel: 'c=10', summary: summary(40000, 2000) }],
  12: [{ templateId: 'node', variant: 'sync', stepLabel: 'c=10', summary: summary(9000, 30000, { failed: 10, notSent: 3 }) }],
};
const runsOf = (sessionId: number) => storedRuns[sessionId] ?? [];

function rules(...texts: string[]): AnyThreshold[] {
  return texts.map((text) => {
    const parsed = parseThreshold(text);
    assert.ok(parsed.ok);
    return parsed.threshold;
  });
}

function reportOf(texts: string[] = ['p99 < 20ms', 'rps > 10000']) {
  const configurations = planConfigurations(twoTargets, targets, runsOf, null);
  return buildPlanReport({ plan: twoTargets, configurations, thresholds: evaluateThresholds(rules(...texts), configurations), baseline: null });
}

describe('planConfigurations', () => {
  test('one configuration per target, keyed by template, variant and knobs', () => {
    const configurations = planConfigurations(twoTargets, targets, runsOf, null);
    assert.deepEqual(
      configurations.map(({ key, label, step, sessionIds, problems, summaries, baseline }) => ({ key, label, step, sessionIds, problems, runs: summaries.length, baseline })),
      [
        { key: 'node:async', label: 'Node.js · async', step: null, sessionIds: [11], problems: [], runs: 1, baseline: null },
        { key: 'node:sync {workers=2}', label: 'Node.js · sync {workers=2}', step: null, sessionIds: [12], problems: [], runs: 1, baseline: null },
      ],
    );
  });

  test('repeats gather into one configuration; a sweep splits it per step; failed stages are its problems', () => {
    const repeated = plan([
      stage('deploy-0-1', 'deploy', 0, { round: 1 }),
      stage('load-0-1', 'load', 0, { sessionId: 21, round: 1 }),
      stage('load-0-2', 'load', 0, { sessionId: 22, round: 2, status: 'failed', detail: 'the agent stopped' }),
    ]);
    const sweep: Record<number, ReportRun[]> = {
      21: [
        { templateId: 'node', variant: 'async', stepLabel: 'c=10', summary: summary(100, 1000) },
        { templateId: 'node', variant: 'async', stepLabel: 'c=100', summary: summary(200, 2000) },
      ],
      22: [{ templateId: 'node', variant: 'async', stepLabel: 'c=10', summary: summary(300, 3000) }],
    };
    const baseline: ReportRun[] = [
      { templateId: 'node', variant: 'async', stepLabel: 'c=100', summary: summary(1, 1) },
      { templateId: 'node', variant: 'sync', stepLabel: 'c=100', summary: summary(2, 2) },
    ];
    const configurations = planConfigurations(repeated, targets.slice(0, 1), (id) => sweep[id] ?? [], baseline);
    assert.deepEqual(
      configurations.map(({ key, label, step, sessionIds, problems, summaries, baseline: matched }) => ({
        key, label, step, sessionIds, problems, rps: summaries.map((entry) => entry?.requestsPerSecond), baseline: matched?.map((entry) => entry?.requestsPerSecond),
      })),
      [
        { key: 'node:async @ c=10', label: 'Node.js · async, c=10', step: 'c=10', sessionIds: [21, 22], problems: ['load-0-2: the agent stopped'], rps: [100, 300], baseline: [] },
        { key: 'node:async @ c=100', label: 'Node.js · async, c=100', step: 'c=100', sessionIds: [21, 22], problems: ['load-0-2: the agent stopped'], rps: [200], baseline: [1] },
      ],
    );
  });
});

test('figuresOf takes the median of each figure over the measured repeats', () => {
  const figures = figuresOf([summary(100, 1000, { failed: 10 }), null, summary(300, 5000, { failed: 30 }), summary(200, 2000, { failed: 0, notSent: 4 })]);
  assert.deepEqual(figures, {
    runs: 3, requestsPerSecond: 200, meanUs: 900, stdDevUs: 10, p50Us: 800, p75Us: 900, p90Us: 1000, p99Us: 2000, p999Us: 2000, maxUs: 4000, errors: 10,
    errorsPercent: (10 / 1010) * 100, timeouts: 0, notSent: 0, inFlight: 0, bands: [], serverMemory: null,
  });
  assert.deepEqual(figuresOf([null]), {
    runs: 0, requestsPerSecond: null, meanUs: null, stdDevUs: null, p50Us: null, p75Us: null, p90Us: null, p99Us: null, p999Us: null, maxUs: null,
    errors: null, errorsPercent: null, timeouts: null, notSent: null, inFlight: null, bands: [], serverMemory: null,
  });
});

describe('buildPlanReport', () => {
  test('passes when the plan completed and every threshold holds, fails on one failure, and says cancelled', () => {
    assert.equal(reportOf(['rps > 1000']).outcome, 'passed');
    assert.equal(reportOf(['p99 < 20ms']).outcome, 'failed');
    const configurations = planConfigurations(twoTargets, targets, runsOf, null);
    assert.equal(buildPlanReport({ plan: { ...twoTargets, status: 'failed' }, configurations, thresholds: [], baseline: null }).outcome, 'failed');
    assert.equal(buildPlanReport({ plan: { ...twoTargets, status: 'cancelled' }, configurations, thresholds: [], baseline: null }).outcome, 'cancelled');
  });

  test('the JSON is versioned and carries the figures and every verdict', () => {
    const json = JSON.parse(planReportJson(reportOf()));
    assert.equal(json.format, 'benchlab-plan-report');
    assert.equal(json.version, 1);
    assert.deepEqual(json.plan, { id: 3, name: 'Node async vs sync', status: 'completed', message: null, startedAt: '2025-05-01T10:00:00.000Z', endedAt: '2025-05-01T10:01:30.000Z', sessionIds: [11, 12] });
    assert.deepEqual(json.configurations[1].figures, {
      runs: 1, requestsPerSecond: 9000, meanUs: 900, stdDevUs: 10, p50Us: 800, p75Us: 900, p90Us: 1000, p99Us: 30000, p999Us: 30000, maxUs: 60000,
      errors: 10, errorsPercent: (10 / 1010) * 100, timeouts: 0, notSent: 3, inFlight: 0, bands: [], serverMemory: null,
    });
    assert.equal(json.configurations[1].status, 'completed');
    assert.deepEqual(
      json.thresholds.map((result: { threshold: string; configuration: string; status: string; measured: number }) => [result.threshold, result.configuration, result.status, result.measured]),
      [
        ['p99 < 20ms', 'node:async', 'holds', 2],
        ['p99 < 20ms', 'node:sync {workers=2}', 'fails', 30],
        ['rps > 10000', 'node:async', 'holds', 40000],
        ['rps > 10000', 'node:sync {workers=2}', 'fails', 9000],
      ],
    );
    assert.equal(json.outcome, 'failed');
  });
});

test('the summary table has a row per configuration, and the failed thresholds a line each with the value', () => {
  const report = reportOf();
  assert.deepEqual(summaryRows(report), {
    headers: ['configuration', 'status', 'runs', 'req/s', 'p50', 'p99', 'max', 'errors', 'not sent', 'thresholds'],
    rows: [
      ['Node.js · async', 'completed', '1', '40,000', '0.80 ms', '2.00 ms', '4.00 ms', '0 (0.00%)', '0', '2 ok'],
      ['Node.js · sync {workers=2}', 'completed', '1', '9,000', '0.80 ms', '30.0 ms', '60.0 ms', '10 (0.99%)', '3', '2 FAILED'],
    ],
  });
  assert.deepEqual(thresholdLines(report), [
    'FAILED Node.js · sync {workers=2}: p99 < 20ms — p99 = 30ms, not < 20ms',
    'FAILED Node.js · sync {workers=2}: rps > 10000 — rps = 9000 rps, not > 10000 rps',
  ]);
});

// --- A strict little XML reader: enough to prove the JUnit output is well-formed ---------------------

interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

function unescape(text: string): string {
  assert.doesNotMatch(text, /&(?!(amp|lt|gt|quot|#39);)/, `a bare & in ${JSON.stringify(text)}`);
  return text.replace(/&(amp|lt|gt|quot|#39);/g, (_, entity: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[entity]!);
}

function parseXml(source: string): XmlElement {
  const declaration = '<?xml version="1.0" encoding="UTF-8"?>\n';
  assert.ok(source.startsWith(declaration), 'starts with the XML declaration');
  const tag = /<(\/?)([A-Za-z_][\w.-]*)((?:\s+[\w:.-]+="[^"<]*")*)\s*(\/?)>/y;
  const root: XmlElement = { name: '#document', attributes: {}, children: [], text: '' };
  const stack = [root];
  let position = declaration.length;
  while (position < source.length) {
    const next = source.indexOf('<', position);
    const text = source.slice(position, next === -1 ? source.length : next);
    assert.doesNotMatch(text, />/, `a bare > in text ${JSON.stringify(text)}`);
    stack.at(-1)!.text += unescape(text);
    if (next === -1) break;
    tag.lastIndex = next;
    const match = tag.exec(source);
    assert.ok(match, `a malformed tag at ${next}: ${source.slice(next, next + 60)}`);
    const [whole, closing, name, attributeText, selfClosing] = match as unknown as [string, string, string, string, string];
    if (closing) {
      assert.equal(stack.pop()!.name, name, `</${name}> closes the element open`);
    } else {
      const attributes: Record<string, string> = {};
      for (const [, key, value] of attributeText.matchAll(/([\w:.-]+)="([^"]*)"/g)) {
        assert.ok(!(key! in attributes), `attribute ${key} twice`);
        attributes[key!] = unescape(value!);
      }
      const element: XmlElement = { name, attributes, children: [], text: '' };
      stack.at(-1)!.children.push(element);
      if (!selfClosing) stack.push(element);
    }
    position = next + whole.length;
  }
  assert.equal(stack.length, 1, 'every element is closed');
  assert.equal(root.children.length, 1, 'one root element');
  return root.children[0]!;
}

describe('planReportJUnit', () => {
  test('one testsuite, a testcase per configuration and per threshold, failures with the measured value', () => {
    const suites = parseXml(planReportJUnit(reportOf()));
    assert.equal(suites.name, 'testsuites');
    assert.deepEqual(suites.attributes, { name: 'benchlab', tests: '6', failures: '2', errors: '0', time: '90.000' });
    const [suite] = suites.children;
    assert.equal(suite!.attributes.name, 'Node async vs sync');
    const cases = suite!.children.filter((child) => child.name === 'testcase');
    assert.deepEqual(
      cases.map((entry) => [entry.attributes.classname, entry.attributes.name, entry.children.map((child) => child.name).join()]),
      [
        ['Node async vs sync.Node.js · async', 'ran to the end', ''],
        ['Node async vs sync.Node.js · async', 'p99 < 20ms', ''],
        ['Node async vs sync.Node.js · async', 'rps > 10000', ''],
        ['Node async vs sync.Node.js · sync {workers=2}', 'ran to the end', ''],
        ['Node async vs sync.Node.js · sync {workers=2}', 'p99 < 20ms', 'failure'],
        ['Node async vs sync.Node.js · sync {workers=2}', 'rps > 10000', 'failure'],
      ],
    );
    const failure = cases[4]!.children[0]!;
    assert.equal(failure.attributes.message, 'p99 = 30ms, not < 20ms');
    assert.equal(failure.text, 'measured 30ms, bound < 20ms\np99 = 30ms, not < 20ms');
  });

  test('names with < & " and control characters stay well-formed and read back as written', () => {
    const configurations = planConfigurations(twoTargets, [{ ...targets[0]!, label: 'A <b> & "c" \'d\'\u0007' }, targets[1]!], runsOf, null);
    const hostile = { ...twoTargets, name: 'Plan <x> & "y"', status: 'failed' as const, message: 'deploy failed: </testcase> & more' };
    const report = buildPlanReport({ plan: hostile, configurations, thresholds: evaluateThresholds(rules('p99 < 1ms'), configurations), baseline: 'tag "<nightly>"' });
    const suites = parseXml(planReportJUnit(report));
    const suite = suites.children[0]!;
    assert.equal(suite.attributes.name, 'Plan <x> & "y"');
    const properties = suite.children.find((child) => child.name === 'properties')!;
    assert.deepEqual(properties.children.map((child) => [child.attributes.name, child.attributes.value]), [['status', 'failed'], ['sessions', '11,12'], ['baseline', 'tag "<nightly>"']]);
    const cases = suite.children.filter((child) => child.name === 'testcase');
    assert.equal(cases[0]!.attributes.name, 'plan');
    assert.equal(cases[0]!.children[0]!.name, 'error');
    assert.equal(cases[0]!.children[0]!.text, 'deploy failed: </testcase> & more');
    assert.equal(cases[1]!.attributes.classname, 'Plan <x> & "y".A <b> & "c" \'d\'');
    assert.equal(suites.attributes.errors, '1');
  });

  test('a failed stage is an error of its configuration; a baseline that cannot tell is skipped', () => {
    const failedPlan = plan([stage('load-0', 'load', 0, { sessionId: 11 }), stage('deploy-1', 'deploy', 1, { status: 'failed', detail: 'port 8080 is in use' })], 'failed', 'Deploy: port 8080 is in use');
    const configurations = planConfigurations(failedPlan, targets, runsOf, []);
    const report = buildPlanReport({ plan: failedPlan, configurations, thresholds: evaluateThresholds(rules('p99 regression < 10%'), configurations), baseline: '7' });
    const cases = parseXml(planReportJUnit(report)).children[0]!.children.filter((child) => child.name === 'testcase');
    assert.deepEqual(
      cases.map((entry) => [entry.attributes.name, entry.children.map((child) => `${child.name}: ${child.attributes.message}`).join()]),
      [
        ['plan', 'error: the plan failed'],
        ['ran to the end', ''],
        ['p99 regression < 10%', 'skipped: p99 regression: the baseline has no measured run of Node.js · async'],
        ['ran to the end', 'error: deploy-1: port 8080 is in use'],
        ['p99 regression < 10%', 'skipped: p99 regression: the baseline has no measured run of Node.js · sync {workers=2}'],
      ],
    );
  });
});

test('planReportMarkdown: the outcome, a table per configuration and its thresholds, pipes escaped', () => {
  const configurations = planConfigurations(twoTargets, [{ ...targets[0]!, label: 'a | b' }, targets[1]!], runsOf, null);
  const report = buildPlanReport({ plan: twoTargets, configurations, thresholds: evaluateThresholds(rules('p99 < 20ms'), configurations), baseline: null });
  const markdown = planReportMarkdown(report);
  assert.equal(
    markdown,
    [
      '# Node async vs sync: FAILED',
      '',
      'Plan completed, started 2025-05-01T10:00:00.000Z; sessions 11, 12.',
      '',
      '## a \\| b',
      '',
      '| requests/s | mean | std dev | p50 | p75 | p90 | p99 | max | errors | not sent |',
      '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
      '| 40,000 | 0.90 ms | 0.01 ms | 0.80 ms | 0.90 ms | 1.00 ms | 2.00 ms | 4.00 ms | 0 (0.00%) | 0 |',
      '',
      '| threshold | measured | result |',
      '|---|---:|---|',
      '| p99 < 20ms | 2ms | ok |',
      '',
      '## Node.js · sync {workers=2}',
      '',
      '| requests/s | mean | std dev | p50 | p75 | p90 | p99 | max | errors | not sent |',
      '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
      '| 9,000 | 0.90 ms | 0.01 ms | 0.80 ms | 0.90 ms | 1.00 ms | 30.0 ms | 60.0 ms | 10 (0.99%) | 3 |',
      '',
      '| threshold | measured | result |',
      '|---|---:|---|',
      '| p99 < 20ms | 30ms | FAILED |',
      '',
    ].join('\n'),
  );
});

test('every configuration says how its runs ended: a stopped run is in no median, judged by no threshold, and shows what it left in flight', () => {
  const stopped = (rps: number) => {
    const cut = summary(rps, 1000);
    return { ...cut, books: { ...cut.books!, inFlight: 16_512 } };
  };
  const repeated = plan([
    stage('load-0-1', 'load', 0, { sessionId: 31, round: 1 }),
    stage('load-0-2', 'load', 0, { sessionId: 32, round: 2 }),
    stage('load-1-1', 'load', 1, { sessionId: 33, round: 1 }),
  ]);
  const stored: Record<number, ReportRun[]> = {
    31: [{ templateId: 'node', variant: 'async', stepLabel: 'c=10', summary: { ...summary(5000, 9000), serverMemory: { minBytes: 80e6, maxBytes: 120e6, endBytes: 110e6 } }, status: 'failed' }],
    32: [{ templateId: 'node', variant: 'async', stepLabel: 'c=10', summary: { ...summary(410, 2000), serverMemory: { minBytes: 80e6, maxBytes: 120e6, endBytes: 110e6 } } }],
    33: [{ templateId: 'node', variant: 'sync', stepLabel: 'c=10', summary: stopped(300), status: 'stopped' }],
  };
  const configurations = planConfigurations(repeated, targets, (id) => stored[id] ?? [], null);
  const report = buildPlanReport({ plan: repeated, configurations, thresholds: evaluateThresholds(rules('rps > 100'), configurations), baseline: null });
  assert.deepEqual(report.configurations.map((entry) => [entry.status, entry.figures.runs, entry.figures.requestsPerSecond, entry.figures.inFlight]), [
    ['1 failed, 1 completed', 1, 410, 0],
    ['stopped', 1, 300, 16_512],
  ], 'the failed run is not in the median; the stopped one alone shows what it measured');
  assert.deepEqual(report.thresholds.map((result) => [result.configuration, result.status]), [['node:async', 'holds'], ['node:sync {workers=2}', 'cant-tell']], 'a stopped run passes no threshold');
  const table = summaryRows(report);
  assert.deepEqual(table.headers, ['configuration', 'status', 'runs', 'req/s', 'p50', 'p99', 'max', 'errors', 'not sent', 'in flight', 'server RSS max', 'thresholds']);
  assert.deepEqual(table.rows[1]!.slice(1, 11), ['stopped', '1', '300', '0.80 ms', '1.00 ms', '2.00 ms', '0 (0.00%)', '0', '16,512', '—']);
  const json = JSON.parse(planReportJson(report));
  assert.deepEqual(json.configurations[0].figures.serverMemory, { minBytes: 80e6, maxBytes: 120e6, endBytes: 110e6 });
  const markdown = planReportMarkdown(report);
  assert.match(markdown, /Server memory \(RSS\): 80 MB min, 120 MB max, 110 MB at the end\./);
  assert.match(markdown, /Status: \*\*stopped\*\*: partial figures, of what was measured before it ended\./);
  assert.match(markdown, /\| requests\/s \| mean \| std dev \| p50 \| p75 \| p90 \| p99 \| max \| errors \| not sent \| in flight \|/);
});
