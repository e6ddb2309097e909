import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { importText } from './index.ts';
import { OHA_RATE_LABEL } from './oha.ts';

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
  assert.throws(() => importText('oha', 'e.json', '[1, 2]'), { message: "e.json:1: oha's JSON output is one JSON object (--output-format json)" });
  assert.throws(() => importText('oha', 'f.json', text.slice(0, 200)), { message: /^f\.json(:\d+)?: oha's JSON output is not valid JSON/ });
});
