import assert from 'node:assert/strict';
import { test } from 'node:test';
import { renderReportHtml } from '../sessions/comparison-report.ts';
import type { Comparison } from '../sessions/comparison.ts';
import { profilesReportHtml, type ReportProfileEntry } from './profile-report.ts';

function comparison(): Comparison {
  const session = (id: number, name: string, group: number) => ({ id, name, status: 'completed', createdAt: '2026-01-01T00:00:00.000Z', startedAt: null, notes: '', tags: [], clientHost: null, serverHost: null, templates: ['node'], configuration: 'GET /', group });
  const row = (session: number, runId: number) => ({ session, runId, values: [1000], best: [false], steadiness: null });
  return {
    title: 'sync vs async',
    sessions: [session(1, 'sync', 0), session(2, 'async', 1), session(3, 'apache', 2)],
    columns: [{ key: 'rps', label: 'Requests/s', unit: 'rps', better: 'higher' }],
    steps: [
      { label: 'c=10', rows: [row(0, 11), row(1, 21), row(2, 31)] },
      { label: 'c=100', rows: [row(0, 12), row(1, 22)] },
    ],
    repeats: [
      { label: 'sync', sessions: [0], steps: [] },
      { label: 'async', sessions: [1], steps: [] },
      { label: 'apache', sessions: [2], steps: [] },
    ],
    timelines: [],
    distributions: [],
    hosts: { rows: [], warnings: [] },
    warnings: [],
  };
}

const entry = (runId: number, sessionId: number, status: ReportProfileEntry['status'], samples: number | null, reason: string | null = null): ReportProfileEntry => ({ runId, sessionId, status, samples, reason, tool: status === 'captured' ? 'v8' : null });

test('the report chapter: per configuration its busiest run top frames and flame graph, or why it has none', () => {
  const folded: Record<number, string> = { 11: 'main;readSync 40\nmain;parse 10\n', 12: 'main;readSync 300\nmain;parse 100\n', 21: 'main;poll 50\n' };
  const read: number[] = [];
  const html = profilesReportHtml(comparison(), [entry(11, 1, 'captured', 50), entry(12, 1, 'captured', 400), entry(21, 2, 'captured', 50), entry(22, 2, 'off', null), entry(31, 3, 'missing', null, 'perf is not installed: apt install linux-perf')], (runId) => {
    read.push(runId);
    return folded[runId] ?? null;
  });
  assert.deepEqual(read, [12, 21], 'the busiest captured run of each configuration, read once');
  const sync = html.slice(html.indexOf('<h3>A · sync</h3>'), html.indexOf('<h3>B · async</h3>'));
  assert.match(sync, /Step c=100, 400 samples \(v8\); the busiest of its 2 profiled runs/);
  assert.match(sync, /<td class="frame">readSync<\/td><td>75\.0 %<\/td>/);
  assert.match(sync, /<svg [^>]*class="flame"/);
  assert.match(html, /<h3>C · apache<\/h3>\s*<div class="meta">No profile: perf is not installed: apt install linux-perf\.<\/div>/);
  assert.equal(profilesReportHtml(comparison(), [], () => null), '', 'sessions from before profiles add no chapter');
});

test('the report places the chapters it is given before the hosts', () => {
  const html = renderReportHtml(comparison(), { generatedAt: new Date('2026-01-01T00:00:00Z'), chapters: ['<section data-section="profiles">PROFILES</section>'] });
  assert.ok(html.includes('PROFILES'));
  assert.ok(html.indexOf('PROFILES') > html.indexOf('sync vs async'));
});
