import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { importText } from './index.ts';
import { summarizeRun, summaryRulesOf } from '../../runs/summarize-run.ts';

const fixture = (name: string) => readFileSync(new URL(`../../../tests/fixtures/imports/${name}`, import.meta.url), 'utf8');
const near = (us: number | null | undefined, expected: number) => assert.ok(typeof us === 'number' && Math.abs(us - expected) <= expected * 0.001, `${us} ≈ ${expected} µs`);

test("k6's --summary-export: http_req_duration's stats in ms → µs; the stats k6 was not asked for are absent with the reason", () => {
  const result = importText('k6', 'k6-summary.json', fixture('k6-summary.json'));
  if (result.kind !== 'summary') return assert.fail('summary expected');
  const { summary } = result;
  assert.deepEqual([summary.meanUs, summary.p50Us, summary.p90Us, summary.maxUs], [144560, 110470, 203540, 1140200]);
  assert.deepEqual([summary.p75Us, summary.p99Us, summary.stdDevUs], [null, null, null]);
  assert.match(result.absent.p99!, /add p\(99\) to --summary-trend-stats/);
  assert.match(result.absent.stddev!, /no standard deviation/);
  assert.deepEqual([summary.requests, summary.requestsPerSecond, summary.seconds, summary.bytes, summary.failed], [180, 5.997501, 30.0125, 1300000, 3]);
  assert.equal(result.absent.failed, undefined, "http_req_failed's passes are the failed requests");
});

test("k6's --out json: every http_req_duration point one request, in the second it ended, failures by error code", () => {
  const result = importText('k6', 'k6-points.ndjson', fixture('k6-points.ndjson'));
  if (result.kind !== 'per-request') return assert.fail('per-request expected');
  const rows = result.seconds.map((s) => ({ requests: s.requests, scheduled: s.scheduled, bytes: s.bytes, durationMs: s.clientMetrics?.durationMs, timeouts: s.errors.timeout, refused: s.errors.refused }));
  // The timed-out request ended at 46.8 s after 10 s: it started at 36.8 s, the earliest start, so
  // the window begins there, eight empty seconds before the first answer.
  const empty = { requests: 0, scheduled: 0, bytes: 0, durationMs: 1000, timeouts: 0, refused: 0 };
  assert.deepEqual(rows, [
    ...Array.from({ length: 8 }, () => empty),
    // [44.8, 45.8): the answers that ended at 45.2 and 45.5 s; [45.8, 46.8): 45.9 (the 404) and 46.3 s.
    { requests: 2, scheduled: 2, bytes: 0, durationMs: 1000, timeouts: 0, refused: 0 },
    { requests: 2, scheduled: 2, bytes: 1000, durationMs: 1000, timeouts: 0, refused: 0 },
    // [46.8, 47.4]: the timeout, the answer at 47.05 s and the refused connection.
    { requests: 1, scheduled: 3, bytes: 750, durationMs: 600, timeouts: 1, refused: 1 },
  ]);
  assert.equal(result.startedAt, '2024-05-09T12:34:36.800Z');
  assert.equal(result.tool.target, 'http://127.0.0.1:8080/hello');
  const { summary } = summarizeRun(result.seconds, summaryRulesOf(undefined, {}));
  assert.deepEqual(summary!.books, { scheduled: 7, answered: 5, errors: 1, timeouts: 1, notSent: 0, inFlight: 0, balanced: true });
  assert.equal(summary!.status['4xx'], 1);
  assert.equal(summary!.failed, 3, 'the 404, the timeout and the refused connection');
  assert.equal(summary!.seconds, 10.6);
  // Answered in ms: 200, 100.25, 50, 300, 75.5 — failures are counted, not timed.
  near(summary!.p50Us, 100250);
  near(summary!.maxUs, 300000);
  near(summary!.meanUs, (200000 + 100250 + 50000 + 300000 + 75500) / 5);
});

test('a damaged k6 file: the line and what is wrong', () => {
  const lines = fixture('k6-points.ndjson').split('\n');
  assert.throws(() => importText('k6', 'cut.json', lines.slice(0, 5).join('\n') + '\n' + lines[5]!.slice(0, 60)), { message: /^cut\.json:6: the line is not valid JSON: truncated/ });
  assert.throws(() => importText('k6', 'neg.json', lines.slice(0, 4).join('\n').replace('"value":200', '"value":-200')), { message: /^neg\.json:4: value must not be negative$/ });
  assert.throws(() => importText('k6', 'nan.json', lines.slice(0, 4).join('\n').replace('"value":200', '"value":"NaN"')), { message: /^nan\.json:4: value is not a number$/ });
  assert.throws(() => importText('k6', 'status.json', lines.slice(0, 4).join('\n').replace('"status":"200"', '"status":"abc"')), { message: /^status\.json:4: the point's status tag is no HTTP status/ });
  const summary = fixture('k6-summary.json');
  assert.throws(() => importText('k6', 'short.json', summary.slice(0, summary.length / 2)), { message: /^short\.json(:\d+)?: k6's summary export is not valid JSON .*truncated\?$/ });
  assert.throws(() => importText('k6', 'noreq.json', '{"metrics": {"vus": {"value": 1}}}'), { message: /no http_req_duration or http_reqs metric/ });
  assert.throws(() => importText('k6', 'oha.json', fixture('oha.json')), { message: "oha.json: this looks like oha's JSON output, not k6's results: import it as oha" });
});
