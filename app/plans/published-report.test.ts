// The printed comparison of a study's sessions sets the seed's published rows beside Benchlab's:
// each seed row followed by the run that stands for it at the matching step, in the same units.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import type { Comparison } from '../sessions/comparison.ts';
import { renderReportHtml } from '../sessions/comparison-report.ts';
import { parsePublishedResults, type PublishedResults } from './published-results.ts';
import { matchingStep, publishedChapter, publishedFor } from './published-report.ts';

function shipped(id: string): PublishedResults {
  const parsed = parsePublishedResults(readFileSync(new URL(`../../resources/studies/published/${id}.yaml`, import.meta.url), 'utf8'));
  assert.notEqual(typeof parsed, 'string', String(parsed));
  return parsed as PublishedResults;
}

const session = (id: number, template: string, variant: string, tags: string[]) => ({
  id,
  name: `Gatling seed — ${template} ${variant}`,
  status: 'completed',
  createdAt: '2026-11-27T20:00:00.000Z',
  startedAt: null,
  notes: '',
  tags,
  clientHost: null,
  serverHost: null,
  templates: [`${template} (${variant})`],
  configuration: 'open',
  group: id - 1,
  setups: [{ template, variant, knobs: '' }],
});

/** Two Gatling-study sessions, four capacity-relative steps each (rates unlike the seed's). */
function gatling(tags = ['gatling-file']): Comparison {
  const rates = [410, 470, 705, 940];
  const columns: Comparison['columns'] = [
    { key: 'rps', label: 'Requests/s', unit: 'rps', better: 'higher' },
    { key: 'mean', label: 'Mean', unit: 'us', better: 'lower' },
    { key: 'p50', label: 'p50', unit: 'us', better: 'lower' },
    { key: 'failed', label: 'Failed', unit: 'count', better: 'lower' },
    { key: 'band:< 800 ms', label: '< 800 ms', unit: 'share', better: 'higher' },
  ];
  return {
    title: 'Gatling seed',
    sessions: [session(1, 'tomcat', 'sync', tags), session(2, 'node', 'sync', tags)],
    columns,
    steps: rates.map((rate, i) => ({
      label: `${rate} req/s`,
      position: { axis: 'rate' as const, value: rate },
      rows: [0, 1].map((s) => ({ session: s, runId: 10 * s + i, values: [rate - 1 - s, (i + 1) * 1000 + s * 7000, 900 + i, i * 3 + s, 0.5 - i / 10], best: columns.map(() => false), steadiness: null })),
    })),
    repeats: [],
    timelines: [],
    distributions: [],
    hosts: { rows: [], warnings: [] },
    warnings: [],
  };
}

/** The table's rows as lists of cell texts. */
function rowsOf(html: string, section: string): string[][] {
  const table = html.split(`<table data-section="${section}"`)[1]!.split('</table>')[0]!;
  return [...table.matchAll(/<tr>(.*?)<\/tr>/g)].map((row) => [...row[1]!.matchAll(/<t[dh][^>]*>(.*?)<\/t[dh]>/g)].map((cell) => cell[1]!.replace(/<[^>]+>/g, '')));
}

test('the chapter goes with the study every session is tagged with, and only then', () => {
  const published = [shipped('ab-fixed-count'), shipped('gatling-file')];
  assert.equal(publishedFor(gatling(), published)?.study, 'gatling-file');
  assert.equal(publishedFor(gatling(['other']), published), null);
  assert.equal(publishedChapter(gatling(['other']), null), '');
});

test('capacity-relative steps match the seed steps in order; Benchlab row under each seed row, in the same units', () => {
  const comparison = gatling();
  const published = shipped('gatling-file');
  const html = publishedChapter(comparison, published);
  const rows = rowsOf(html, 'published-beside');
  const header = rows[0]!;
  const at = (label: string) => header.indexOf(label);
  assert.ok(at('req/s') > 0 && at('mean (ms)') > 0 && at('&lt; 800 ms') > 0, header.join(' | '));

  const seedBio = rows.findIndex((row) => row[0] === 'seed: Servlet BIO' && row[1] === '52500 requests over 30 s');
  assert.ok(seedBio > 0);
  assert.equal(rows[seedBio]![at('req/s')], '1228.27');
  // The seed's band is a count: its share beside it, as Benchlab's band is a share.
  assert.equal(rows[seedBio]![at('&lt; 800 ms')], '13,269 (25.3 %)');
  const bench = rows[seedBio + 1]!;
  assert.match(bench[0]!, /^Benchlab: A · tomcat \(sync\)/);
  assert.equal(bench[1], '410 req/s');
  assert.equal(bench[at('req/s')], '409');
  assert.equal(bench[at('mean (ms)')], '1.00');
  assert.equal(bench[at('&lt; 800 ms')], '50.0 %');

  // The seed's fourth step (120,000 requests) goes with the fourth step Benchlab ran.
  const last = rows.findIndex((row) => row[0] === 'seed: Servlet BIO' && row[1] === '120000 requests over 30 s');
  assert.equal(rows[last + 1]![1], '940 req/s');
  // Node sync's seed rows get node sync's session, not Tomcat's.
  const nodeSync = rows.findIndex((row) => row[0]!.startsWith('seed: Node.js sync'));
  assert.match(rows[nodeSync + 1]![0]!, /^Benchlab: B · node \(sync\)/);
  // A seed server no compared session ran says so instead of borrowing a row.
  const spray = rows.findIndex((row) => row[0]!.startsWith('seed: Spray'));
  assert.equal(rows[spray + 1]![0], 'Benchlab: not among the compared sessions');
  assert.match(html, /never in a verdict/);
});

test('a step that matches by its value wins over order; with steps that cannot be matched, none is claimed', () => {
  const comparison = gatling();
  const published = shipped('gatling-file');
  const row = { ...published.results[0]!, stepValue: 705 };
  assert.equal(matchingStep(comparison, 0, row, published.results)?.label, '705 req/s');
  const three = { ...comparison, steps: comparison.steps.slice(0, 3) };
  assert.equal(matchingStep(three, 0, published.results[0]!, published.results), null);
});

test("the seed's figures with no like in Benchlab stay in a table of their own", () => {
  const html = publishedChapter(gatling(['ab-fixed-count']), shipped('ab-fixed-count'));
  const other = rowsOf(html, 'published-other');
  assert.ok(other[0]!.includes('connect mean (ms)') && other[0]!.includes('p66 (ms)'), other[0]!.join(' | '));
  assert.ok(!rowsOf(html, 'published-beside')[0]!.includes('p66 (ms)'));
});

test('the report places a chapter it is given', () => {
  const comparison = gatling();
  const html = renderReportHtml(comparison, { generatedAt: new Date('2026-11-27T21:00:00Z'), chapters: [publishedChapter(comparison, shipped('gatling-file'))] });
  assert.match(html, /<section class="chapter" data-section="published">/);
});
