import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { importText } from './index.ts';
import { summarizeRun, summaryRulesOf } from '../../runs/summarize-run.ts';

const fixture = (name: string) => readFileSync(new URL(`../../../tests/fixtures/imports/${name}`, import.meta.url), 'utf8');

test("hey's CSV: answered requests by the second they ended, seconds → µs, no books (failures are not in the file)", () => {
  const result = importText('hey', 'hey.csv', fixture('hey.csv'));
  if (result.kind !== 'per-request') return assert.fail('per-request expected');
  // Offsets from 0.001 s: ends at 0.0022, 0.2021 | 1.004, 1.5018, 1.91 | 2.15 s.
  assert.deepEqual(result.seconds.map((s) => [s.requests, s.statusClasses['5xx'], s.scheduled, s.clientMetrics?.durationMs]), [
    [2, 0, null, 1000],
    [3, 1, null, 1000],
    [1, 0, null, 149],
  ]);
  assert.equal(result.startedAt, null, 'hey writes no clock time');
  assert.match(result.absent.timeouts!, /answered requests only/);
  const { summary } = summarizeRun(result.seconds, summaryRulesOf(undefined, {}));
  assert.equal(summary!.books, null);
  assert.equal(summary!.requests, 6);
  assert.ok(Math.abs(summary!.requestsPerSecond - 6 / 2.149) < 1e-9);
  // 1.2, 2.1, 5, 1.8, 10, 50 ms: the median is the third, 2.1 ms; the max 50 ms.
  assert.ok(Math.abs(summary!.p50Us! - 2100) <= 2);
  assert.ok(Math.abs(summary!.maxUs! - 50000) <= 50);
});

test('a damaged hey file: the line and what is wrong', () => {
  const lines = fixture('hey.csv').split('\n');
  assert.throws(() => importText('hey', 'a.csv', `${lines[0]}\n0.0012,0,0,0,0,0,200`), { message: /^a\.csv:2: the line has 7 fields, too few for offset: truncated\?$/ });
  assert.throws(() => importText('hey', 'b.csv', `${lines[0]}\n-0.0012,0,0,0,0,0,200,0.1`), { message: 'b.csv:2: response-time must not be negative: -0.0012' });
  assert.throws(() => importText('hey', 'c.csv', `${lines[0]}\n0.0012,0,0,0,0,0,200,Infinity`), { message: 'c.csv:2: offset is not a number: "Infinity"' });
  assert.throws(() => importText('hey', 'd.csv', `${lines[0]}\n0.0012,0,0,0,0,0,999,0.1`), { message: 'd.csv:2: status 999 is no HTTP status' });
  assert.throws(() => importText('hey', 'jtl.csv', fixture('jmeter.jtl')), { message: "jtl.csv:1: this looks like JMeter's JTL CSV, not hey's CSV: import it as jmeter" });
});

test('a latency past the histogram\'s 60 s is recorded at 60 s, and the result says how many were', () => {
  const header = fixture('hey.csv').split('\n')[0];
  const result = importText('hey', 'slow.csv', `${header}\n0.0012,0,0,0,0,0,200,0.1\n61.5000,0,0,0,0,0,200,0.2\n`);
  if (result.kind !== 'per-request') return assert.fail('per-request expected');
  assert.ok(result.missing.includes('1 latencies above 60 s recorded at 60 s'), result.missing.join('; '));
  const { summary } = summarizeRun(result.seconds, summaryRulesOf(undefined, {}));
  assert.ok(summary!.maxUs! <= 60_000_000 * 1.001, `max ${summary!.maxUs} µs`);
});

test("hey's CSV of a real run (tools/hey.csv): failed counts the non-2xx answers it lists, as every summary shows it", () => {
  const text = readFileSync(new URL('../../../tests/fixtures/imports/tools/hey.csv', import.meta.url), 'utf8');
  const codes = text.trim().split('\n').slice(1).map((line) => Number(line.split(',')[6]));
  const result = importText('hey', 'hey.csv', text);
  if (result.kind !== 'per-request') return assert.fail('per-request expected');
  assert.equal(result.absent.failed, undefined, 'Compare shows the count, as sessions show does');
  const { summary } = summarizeRun(result.seconds, summaryRulesOf(undefined, {}));
  assert.equal(summary!.failed, codes.filter((code) => code >= 300 || code < 200).length);
  assert.ok(summary!.failed > 0);
  assert.ok(result.missing.some((line) => line.includes('requests without an answer are not in it')));
});
