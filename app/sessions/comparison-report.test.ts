// The printed comparison says what the numbers support: ratio verdicts (or that there are too few
// runs for one) instead of a significance mark, and runs that were not steady, with the evidence.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ratioVerdict } from './compare-stats.ts';
import { comparisonCharts, renderReportHtml } from './comparison-report.ts';
import type { Comparison } from './comparison.ts';

const interval = (median: number) => ({ n: 2, median, low: median, high: median });

function comparison(): Comparison {
  const session = (id: number, name: string, group: number) => ({
    id,
    name,
    status: 'completed',
    createdAt: '2026-01-01T00:00:00.000Z',
    startedAt: null,
    notes: '',
    tags: [],
    clientHost: null,
    serverHost: null,
    templates: ['node'],
    configuration: 'GET /',
    group,
  });
  return {
    title: 'Node sync vs async',
    sessions: [session(1, 'sync #1', 0), session(2, 'sync #2', 0), session(3, 'async #1', 1), session(4, 'async #2', 1)],
    columns: [{ key: 'rps', label: 'Requests/s', unit: 'rps', better: 'higher' }],
    steps: [
      {
        label: 'c=10',
        rows: [
          { session: 0, runId: 1, values: [1000], best: [false], steadiness: { steady: true, message: 'steady' } },
          { session: 1, runId: 2, values: [1010], best: [false], steadiness: null },
          { session: 2, runId: 3, values: [1500], best: [true], steadiness: { steady: false, message: 'not steady: requests/s fell 18 % from the first half to the second' } },
          { session: 3, runId: 4, values: [1490], best: [false], steadiness: null },
        ],
      },
    ],
    repeats: [
      { label: 'sync (2 runs)', sessions: [0, 1], steps: [{ label: 'c=10', rps: interval(1005), p99Us: null, rpsVsBaseline: null, p99VsBaseline: null }] },
      {
        label: 'async (2 runs)',
        sessions: [2, 3],
        steps: [{ label: 'c=10', rps: interval(1495), p99Us: null, rpsVsBaseline: ratioVerdict([1000, 1010], [1500, 1490]), p99VsBaseline: null }],
      },
    ],
    timelines: [],
    distributions: [],
    hosts: { rows: [], warnings: [] },
    warnings: [],
  };
}

test('two runs a side: the PDF says too few runs for a verdict, never "significant"', () => {
  const html = renderReportHtml(comparison(), { generatedAt: new Date('2026-01-02T00:00:00Z') });
  assert.match(html, /too few runs for a verdict \(n = 2 and 2; 5 a side needed\)/);
  assert.doesNotMatch(html, /significant/);
});

test('a run that was not steady is marked in its step table, with the evidence beneath', () => {
  const html = renderReportHtml(comparison(), { generatedAt: new Date('2026-01-02T00:00:00Z') });
  assert.match(html, /<td class="text">B1 · async #1 — not steady †<\/td>/);
  assert.match(html, /† async #1: not steady: requests\/s fell 18 % from the first half to the second/);
  assert.doesNotMatch(html, /· sync #1 — not steady/);
  assert.match(html, /Not steady: “async #1”/, 'and it is among the first page\'s warnings');
});

/** A two-session sweep with a pause between its steps, one host fact differing. */
function sweep(): Comparison {
  const base = comparison();
  const steps = ['c=10, 30 s', 'c=100, 30 s'];
  return {
    ...base,
    sessions: base.sessions.slice(0, 2).map((session, i) => ({ ...session, group: i, name: i === 0 ? 'Tomcat' : 'Vert.x', configuration: 'GET http://server:8080/ · closed model, 10 → 100 connections, 30 s each' })),
    columns: [
      { key: 'rps', label: 'Requests/s', unit: 'rps', better: 'higher' },
      { key: 'p50', label: 'p50', unit: 'us', better: 'lower' },
      { key: 'p99', label: 'p99', unit: 'us', better: 'lower' },
    ],
    steps: steps.map((label, s) => ({
      label,
      position: { axis: 'connections' as const, value: s === 0 ? 10 : 100 },
      rows: [0, 1].map((session) => ({ session, runId: s * 2 + session + 1, values: [1000 * (session + 1), 900, 2000], best: [session === 1, false, false], steadiness: null })),
    })),
    repeats: [0, 1].map((g) => ({ label: g === 0 ? 'Tomcat' : 'Vert.x', sessions: [g], steps: [] })),
    // 3 s of the first step, a 5 s pause, 3 s of the second.
    timelines: [0, 1].map((session) => ({ session, t: [0, 1, 2, 8, 9, 10], rps: [1, 2, 3, 4, 5, 6], p99Us: [1000, 1000, 1000, 2000, 2000, 2000], steps: [{ t: 0, label: steps[0]! }, { t: 8, label: steps[1]! }] })),
    distributions: steps.flatMap((step) => [0, 1].map((session) => ({ session, step, points: [{ percentile: 50, us: 900 }, { percentile: 99, us: 2000 }] }))),
    hosts: {
      rows: [
        { role: 'server', label: 'kernel', values: ['6.12', '6.12'], differs: false },
        { role: 'server', label: 'OS', values: ['Debian 13', 'Debian 13'], differs: false },
        { role: 'server', label: 'cores', values: ['2', '4'], differs: true },
        { role: 'client', label: 'memory', values: ['7.6 GiB', '7.6 GiB'], differs: false },
      ],
      warnings: ['Not comparable: the server hosts differ in cores.'],
    },
    warnings: ['Not comparable: the server hosts differ in cores.'],
  };
}

test('a sweep gets requests/s and p50/p99 against connections, a distribution for every step, and time series broken at the pause', () => {
  const charts = comparisonCharts(sweep());
  assert.deepEqual(charts.map((chart) => chart.id), ['sweep-rps', 'sweep-latency', 'time-rps', 'time-p99', 'distribution-1', 'distribution-2']);
  const timeRps = charts.find((chart) => chart.id === 'time-rps')!.svg;
  const path = /<path data-series="A" d="([^"]+)"/.exec(timeRps)![1]!;
  assert.equal(path.match(/M/g)!.length, 2, 'a new line after the pause, none drawn across it');
  assert.match(timeRps, />c=100, 30 s<\/text>/, 'the second step is marked where it began');
  const latency = charts.find((chart) => chart.id === 'sweep-latency')!.svg;
  assert.equal(latency.match(/stroke-dasharray="5 3"/g)!.length, 2, 'p50 dashed, one line per configuration');
  // A comparison of one step each has no sweep to draw.
  const single = { ...sweep(), steps: sweep().steps.slice(0, 1) };
  assert.ok(!comparisonCharts(single).some((chart) => chart.id.startsWith('sweep-')));
});

test('first page: the configurations by letter, the headline with its verdict, the warnings and the notes before any chart', () => {
  const html = renderReportHtml(sweep(), { generatedAt: new Date('2026-01-02T00:00:00Z'), notes: 'Same lab.' });
  const charts = html.indexOf('<h2>Charts</h2>');
  for (const part of ['data-section="configurations"', 'data-section="headline"', 'Requests/s: B is 2.00× A — too few runs for a verdict (1 run each; 5 a side needed).', 'Not comparable: the server hosts differ in cores.', 'Same lab.']) {
    const at = html.indexOf(part);
    assert.ok(at > 0 && at < charts, `${part} is on the first page`);
  }
  assert.doesNotMatch(html.slice(0, charts), /<th[^>]*>Engine<\/th>/, 'no engine column when no session recorded one');
  const withEngine = renderReportHtml({ ...sweep(), sessions: sweep().sessions.map((session) => ({ ...session, engine: 'native' })) }, { generatedAt: new Date() });
  assert.match(withEngine, /<th class="text">Engine<\/th>/);
});

test('layout: every heading is kept with what follows it; the hosts section prints only facts that differ, the rest counted', () => {
  const html = renderReportHtml(sweep(), { generatedAt: new Date('2026-01-02T00:00:00Z'), notes: 'n' });
  const headings = [...html.matchAll(/<h([23])>/g)];
  assert.ok(headings.length >= 6);
  for (const heading of headings) {
    const before = html.slice(0, heading.index);
    assert.ok(before.endsWith('<div class="keep">'), `heading at ${heading.index} opens a keep-together block`);
    const after = html.slice(heading.index).replace(/^<h[23]>[^<]*<\/h[23]>/, '');
    assert.ok(!after.startsWith('</div>'), 'and something follows it inside the block');
  }
  const hostTable = /<table data-section="host-diff">.*?<\/table>/s.exec(html)![0];
  assert.match(hostTable, /cores/);
  assert.doesNotMatch(hostTable, /kernel/);
  const hosts = /data-section="hosts".*$/s.exec(html)![0];
  for (const alike of ['kernel', '6.12', 'Debian 13', '7.6 GiB']) assert.ok(!hosts.includes(alike), `"${alike}" is alike in every session: not printed`);
  assert.match(hosts, /Server hosts:<\/b> 2 facts identical in every session \(not listed\)\./);
  assert.match(hosts, /Client hosts:<\/b> 1 fact identical in every session \(not listed\)\./);
});

test('no internal field names: a stored profile is described in words', () => {
  const html = renderReportHtml(sweep(), { generatedAt: new Date('2026-01-02T00:00:00Z') });
  const text = html.replace(/<style>.*?<\/style>/s, '').replace(/<[^>]+>/g, ' ');
  for (const internal of [/durationS/, /warmupS/, /sweep\s*\[/, /\[\]/, /\bundefined\b/, /\bnull\b/, /NaN/]) assert.doesNotMatch(text, internal);
});

test('a failed run is never bold as best: not its "0 failed", not its requests/s; its status is printed', () => {
  const base = comparison();
  const session = (id: number, name: string, status: string) => ({ ...base.sessions[0]!, id, name, status, group: id });
  const step = (label: string) => ({ label, rps: interval(1), p99Us: null, rpsVsBaseline: null, p99VsBaseline: null });
  const failedRun: Comparison = {
    ...base,
    sessions: [session(0, 'Node', 'failed'), session(1, 'Node rerun', 'completed'), session(2, 'Vert.x', 'completed')],
    columns: [
      { key: 'rps', label: 'Requests/s', unit: 'rps', better: 'higher' },
      { key: 'failed', label: 'Failed', unit: 'count', better: 'lower' },
    ],
    steps: [
      {
        label: 'c=10',
        rows: [
          { session: 0, runId: 1, values: [5000, 0], best: [false, false], steadiness: null, status: 'failed' },
          { session: 1, runId: 2, values: [410, 3], best: [false, true], steadiness: null, status: 'completed' },
          { session: 2, runId: 3, values: [300, 5], best: [false, false], steadiness: null, status: 'completed' },
        ],
      },
    ],
    repeats: [
      { label: 'Node (failed)', sessions: [0], steps: [step('c=10')] },
      { label: 'Node rerun', sessions: [1], steps: [step('c=10')] },
      { label: 'Vert.x', sessions: [2], steps: [step('c=10')] },
    ],
  };
  const html = renderReportHtml(failedRun, { generatedAt: new Date('2026-01-02T00:00:00Z') });
  const headline = html.slice(html.indexOf('data-section="headline"'), html.indexOf('</table>', html.indexOf('data-section="headline"')));
  const bold = [...headline.matchAll(/<td class="best" data-metric="(\w+)">([^<]*)<\/td>/g)].map((match) => [match[1], match[2]]);
  assert.deepEqual(bold, [['rps', '410'], ['errors', '3']], 'the completed runs are ranked, the failed one is not');
  assert.match(headline, /Node — failed/);
  assert.match(html, /Node — failed, not ranked/, 'its step row says how it ended');
});
