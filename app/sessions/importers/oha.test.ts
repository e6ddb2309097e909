import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { importText } from './index.ts';
import { OHA_RATE_LABEL } from './oha.ts';
import { summarizeRun, summaryRulesOf } from '../../runs/summarize-run.ts';

const fixture = (name: string) => readFileSync(new URL(`../../../tests/fixtures/imports/${name}`, import.meta.url), 'utf8');

test("oha's --json: seconds → µs, answers by status class, errors by message, the deadline's cut-off requests left out", () => {
  const result = importText('oha', 'oha.json', fixture('oha.json'));
  if (result.kind !== 'summary') return assert.fail('summary expected');
  const { summary } = result;
  assert.deepEqual([summary.meanUs, summary.p50Us, summary.p75Us, summary.p90Us, summary.p99Us, summary.p999Us, summary.maxUs, summary.stdDevUs], [5100, 4200, 6100, 9300, 31500, 87100, 102300, null]);
  // Answers over the run's time; oha's own figure (every request made) is kept beside it.
  assert.deepEqual([summary.requests, summary.seconds, summary.requestsPerSecond, summary.bytes], [19900, 10.0012, 19900 / 10.0012, 238800]);
  assert.equal(result.toolFigures![OHA_RATE_LABEL], 1994.56);
  assert.deepEqual(summary.status, { '2xx': 19800, '5xx': 100 });
  assert.equal(summary.errors.closed, 50);
  assert.equal(summary.failed, 150);
  assert.ok(result.missing.some((line) => line.startsWith('20 requests were cut off')));
  assert.match(result.absent.stddev!, /no standard deviation/);
});

test('a damaged oha file: what is wrong', () => {
  const text = fixture('oha.json');
  assert.throws(() => importText('oha', 'a.json', text.replace('"total": 10.0012', '"total": "ten"')), { message: 'a.json: summary.total is not a number' });
  assert.throws(() => importText('oha', 'b.json', text.replace('"p50": 0.0042', '"p50": -0.0042')), { message: 'b.json: latencyPercentiles.p50 must not be negative' });
  assert.throws(() => importText('oha', 'c.json', text.replace('"200": 19800', '"200": 1.5')), { message: 'c.json: statusCodeDistribution["200"] is not a count' });
  assert.throws(() => importText('oha', 'd.json', text.replace('"503": 100', '"999": 100')), { message: 'd.json: statusCodeDistribution has "999", no HTTP status' });
  assert.throws(() => importText('oha', 'e.json', '[1, 2]'), { message: `e.json:1: oha's output is one JSON object (--output-format json), or its CSV starting "request-start,DNS,DNS+dialup,Response-delay,request-duration,bytes,status"` });
  assert.throws(() => importText('oha', 'f.json', text.slice(0, 200)), { message: /^f\.json(:\d+)?: oha's JSON output is not valid JSON/ });
});

// Files made by oha 1.16 itself (scripts/make-import-fixtures.ts): the figures the test checks come from
// the same file, read here independently of the importer.
const tool = (name: string) => readFileSync(new URL(`../../../tests/fixtures/imports/tools/${name}`, import.meta.url), 'utf8');

test("oha's JSON of a real run: answers by status, the closed sockets as errors, answers per second beside oha's own figure", () => {
  const text = tool('oha.json');
  const raw = JSON.parse(text) as { summary: { total: number; requestsPerSec: number }; latencyPercentiles: Record<string, number>; statusCodeDistribution: Record<string, number>; errorDistribution: Record<string, number> };
  const result = importText('oha', 'oha.json', text);
  if (result.kind !== 'summary') return assert.fail('summary expected');
  const answered = Object.values(raw.statusCodeDistribution).reduce((sum, count) => sum + count, 0);
  const fiveHundreds = Object.entries(raw.statusCodeDistribution).filter(([code]) => code.startsWith('5')).reduce((sum, [, count]) => sum + count, 0);
  assert.equal(result.summary.requests, answered);
  assert.equal(result.summary.status['5xx'], fiveHundreds);
  assert.ok(fiveHundreds > 0);
  assert.equal(result.summary.errors.closed, Object.values(raw.errorDistribution).reduce((sum, count) => sum + count, 0), 'a socket closed before its answer is an error, not an answer');
  assert.equal(result.summary.requestsPerSecond, answered / raw.summary.total);
  assert.equal(result.toolFigures![OHA_RATE_LABEL], raw.summary.requestsPerSec);
  assert.ok(result.summary.requestsPerSecond < raw.summary.requestsPerSec, "oha's figure counts the failed requests too");
  assert.equal(result.summary.p99Us, Math.round(raw.latencyPercentiles.p99! * 1e6 * 1000) / 1000);
});

test("oha's JSON of a run with no answer at all: 0 answers per second, oha's figure kept apart", () => {
  const text = tool('oha-refused.json');
  const raw = JSON.parse(text) as { summary: { requestsPerSec: number }; errorDistribution: Record<string, number> };
  const result = importText('oha', 'oha-refused.json', text);
  if (result.kind !== 'summary') return assert.fail('summary expected');
  assert.equal(result.summary.requests, 0);
  assert.equal(result.summary.requestsPerSecond, 0);
  assert.ok(raw.summary.requestsPerSec > 0, 'oha printed a rate of requests made');
  assert.equal(result.toolFigures![OHA_RATE_LABEL], raw.summary.requestsPerSec);
  assert.equal(result.summary.failed, Object.entries(raw.errorDistribution).filter(([message]) => !message.includes('deadline')).reduce((sum, [, count]) => sum + count, 0));
});

test("oha's per-request CSV of a real run: a real histogram, its answers per second and its percentiles from the file's own durations", () => {
  const text = tool('oha.csv');
  const rows = text.trim().split('\n').slice(1).map((line) => line.split(',').map(Number));
  const result = importText('oha', 'oha.csv', text);
  if (result.kind !== 'per-request') return assert.fail('per-request expected');
  const { summary } = summarizeRun(result.seconds, summaryRulesOf(undefined, {}));
  assert.equal(summary!.requests, rows.length);
  assert.equal(summary!.failed, rows.filter((row) => row[6]! >= 300).length, "the non-2xx answers it lists");
  assert.ok(summary!.failed > 0);
  assert.equal(summary!.bytes, rows.reduce((sum, row) => sum + row[5]!, 0));
  assert.equal(summary!.books, null, 'no books: the failed requests are not in the file');
  const durations = rows.map((row) => row[4]! * 1e6).sort((a, b) => a - b);
  const at = (quantile: number) => durations[Math.ceil(quantile * durations.length) - 1]!;
  for (const [quantile, figure] of [[0.5, summary!.p50Us], [0.99, summary!.p99Us]] as const) {
    // Within the histogram's precision (3 significant digits) and 1 µs of rounding.
    assert.ok(Math.abs(figure! - at(quantile)) <= at(quantile) * 0.002 + 1, `p${quantile * 100}: ${figure} µs against the file's ${at(quantile).toFixed(1)} µs`);
  }
  assert.equal(result.startedAt, null, 'oha writes no clock time');
  assert.match(result.absent.timeouts!, /answered requests only/);
  assert.ok(result.missing.some((line) => line.includes('not stored')), 'says what of the file it leaves out');
});

test("oha's CSV and JSON are told apart from other tools' files, and a cut CSV says which line", () => {
  assert.throws(() => importText('k6', 'oha.json', tool('oha.json')), { message: "oha.json: this looks like oha's JSON output, not k6's results: import it as oha" });
  assert.throws(() => importText('hey', 'oha.csv', tool('oha.csv')), { message: /^oha\.csv:1: this looks like oha's CSV, not hey's CSV: import it as oha$/ });
  const header = tool('oha.csv').split('\n')[0];
  assert.throws(() => importText('oha', 'cut.csv', `${header}\n0.0008,0.00007,0.0039,0.0046,0.0046,12`), { message: /^cut\.csv:2: the line has 6 fields, too few for status: truncated\?$/ });
  assert.throws(() => importText('oha', 'empty.csv', `${header}\n`), { message: "empty.csv: oha's CSV lists no requests" });
});
