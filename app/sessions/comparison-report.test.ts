// The printed comparison says what the numbers support: ratio verdicts (or that there are too few
// runs for one) instead of a significance mark, and runs that were not steady, with the evidence.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ratioVerdict } from './compare-stats.ts';
import { renderReportHtml } from './comparison-report.ts';
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
  assert.match(html, /<td>async #1 — not steady †<\/td>/);
  assert.match(html, /† async #1: not steady: requests\/s fell 18 % from the first half to the second/);
  assert.doesNotMatch(html, /<td>sync #1 — not steady/);
});
