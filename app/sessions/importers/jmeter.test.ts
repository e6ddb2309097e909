import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { importText } from './index.ts';
import { summarizeRun, summaryRulesOf } from '../../runs/summarize-run.ts';

const fixture = (name: string) => readFileSync(new URL(`../../../tests/fixtures/imports/${name}`, import.meta.url), 'utf8');

test("JMeter's JTL CSV: samples from their start and elapsed ms, non-HTTP codes as errors by exception, transaction lines skipped", () => {
  const result = importText('jmeter', 'jmeter.jtl', fixture('jmeter.jtl'));
  if (result.kind !== 'per-request') return assert.fail('per-request expected');
  assert.deepEqual(result.seconds.map((s) => ({ answered: s.requests, scheduled: s.scheduled, bytes: s.bytes, refused: s.errors.refused, timeouts: s.errors.timeout, durationMs: s.clientMetrics?.durationMs })), [
    { answered: 3, scheduled: 3, bytes: 520, refused: 0, timeouts: 0, durationMs: 1000 },
    { answered: 0, scheduled: 1, bytes: 0, refused: 1, timeouts: 0, durationMs: 1000 },
    { answered: 1, scheduled: 1, bytes: 170, refused: 0, timeouts: 0, durationMs: 1000 },
    { answered: 0, scheduled: 1, bytes: 0, refused: 0, timeouts: 1, durationMs: 201 },
  ]);
  assert.equal(result.startedAt, new Date(1700000000000).toISOString());
  assert.ok(result.missing.some((line) => line.startsWith('1 transaction controller lines skipped')));
  const { summary } = summarizeRun(result.seconds, summaryRulesOf(undefined, {}));
  assert.deepEqual(summary!.books, { scheduled: 6, answered: 4, errors: 1, timeouts: 1, notSent: 0, inFlight: 0, balanced: true });
  assert.equal(summary!.status['5xx'], 1);
  // Answered: 12, 25, 40 and 18 ms.
  assert.ok(Math.abs(summary!.maxUs! - 40000) <= 40);
  assert.ok(Math.abs(summary!.p50Us! - 18000) <= 18);
});

test('a damaged or foreign JTL: the line and what is wrong', () => {
  const [header, first] = fixture('jmeter.jtl').split('\n');
  assert.throws(() => importText('jmeter', 'a.jtl', `${header}\n${first!.replace('1700000000000,12', 'yesterday,12')}`), { message: 'a.jtl:2: timeStamp is not a number: "yesterday"' });
  assert.throws(() => importText('jmeter', 'b.jtl', `${header}\n${first!.replace('1700000000000,12', '1700000000000,-12')}`), { message: 'b.jtl:2: elapsed must not be negative: -12' });
  assert.throws(() => importText('jmeter', 'c.jtl', 'timeStamp,label\n1700000000000,x'), { message: 'c.jtl:1: the header of the JTL lacks elapsed, responseCode' });
  assert.throws(() => importText('jmeter', 'd.jtl', '<?xml version="1.0" encoding="UTF-8"?>\n<testResults version="1.2">'), { message: 'd.jtl:1: this is a JTL in XML: save results as CSV (jmeter.save.saveservice.output_format=csv)' });
  assert.throws(() => importText('jmeter', 'e.jtl', header!), { message: 'e.jtl: the JTL lists no samples' });
});
