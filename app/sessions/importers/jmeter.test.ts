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
  assert.ok(result.missing.some((line) => line.startsWith('1 transaction controller samples left out')));
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
  assert.throws(() => importText('jmeter', 'd.jtl', '<?xml version="1.0" encoding="UTF-8"?>\n<testResults version="1.2">'), { message: "d.jtl:2: the XML ends before </testResults>: the file is cut short (JMeter's JTL in XML)" });
  assert.throws(() => importText('jmeter', 'e.jtl', header!), { message: 'e.jtl: the JTL lists no samples' });
});

const tool = (name: string) => readFileSync(new URL(`../../../tests/fixtures/imports/tools/${name}`, import.meta.url), 'utf8');

/** The samples of a JMeter 2.13 CSV as the file has them (default columns: success 8th, bytes 9th). */
function samplesOf(text: string) {
  return text.trim().split('\n').filter((line) => /^\d/.test(line)).map((line) => {
    const fields = line.split(',');
    return { startMs: Number(fields[0]), code: fields[3]!, success: fields[7] === 'true', bytes: Number(fields[8]) };
  });
}

for (const file of ['jmeter-default.csv', 'jmeter-header.csv']) {
  test(`JMeter 2.13's CSV (${file}): assertion failures are failures, exception text is no received bytes, ${file === 'jmeter-default.csv' ? 'read without a header line' : 'with its header line'}`, () => {
    const samples = samplesOf(tool(file));
    const asserted = samples.filter((sample) => !sample.success && /^\d{3}$/.test(sample.code));
    const exceptions = samples.filter((sample) => !/^\d{3}$/.test(sample.code));
    assert.ok(asserted.length > 0 && exceptions.length > 0, 'the run has both kinds of failure');
    const result = importText('jmeter', file, tool(file));
    if (result.kind !== 'per-request') return assert.fail('per-request expected');
    const { summary } = summarizeRun(result.seconds, summaryRulesOf(undefined, {}));
    assert.equal(summary!.requests, samples.length - asserted.length - exceptions.length);
    assert.equal(summary!.errors.other, asserted.length);
    assert.equal(summary!.errors.closed, exceptions.length, 'NoHttpResponseException: the server closed the socket');
    assert.equal(summary!.failed, asserted.length + exceptions.length);
    const answeredBytes = samples.filter((sample) => /^\d{3}$/.test(sample.code)).reduce((sum, sample) => sum + sample.bytes, 0);
    assert.equal(summary!.bytes, answeredBytes);
    assert.ok(result.missing.some((line) => line.includes(`${asserted.length} answers JMeter marked failed`)));
    if (file === 'jmeter-default.csv') assert.ok(result.missing.includes("no header line: read as JMeter 2.x's default columns"));
  });
}

test("JMeter 2.13's CSV of a transaction controller's parent samples only: each parent one transaction (jmeter-transaction.csv)", () => {
  const parents = samplesOf(tool('jmeter-transaction.csv'));
  const result = importText('jmeter', 'jmeter-transaction.csv', tool('jmeter-transaction.csv'));
  if (result.kind !== 'per-request') return assert.fail('per-request expected');
  const { summary } = summarizeRun(result.seconds, summaryRulesOf(undefined, {}));
  assert.equal(summary!.books!.scheduled, parents.length);
  assert.ok(result.missing.some((line) => line.startsWith("the file holds a transaction controller's parent samples only")));
});

test("JMeter 2.13's XML JTL: each sample element, the window from the earliest start, not the first line's (jmeter.xml)", () => {
  const text = tool('jmeter.xml');
  const starts = [...text.matchAll(/<httpSample [^>]*\bts="(\d+)"/g)].map(([, ts]) => Number(ts));
  const firstLine = starts[0]!;
  const earliest = Math.min(...starts);
  assert.ok(earliest < firstLine, 'the file holds a sample that started before the first one written');
  const result = importText('jmeter', 'jmeter.xml', text);
  if (result.kind !== 'per-request') return assert.fail('per-request expected');
  assert.equal(result.startedAt, new Date(earliest).toISOString());
  const { summary } = summarizeRun(result.seconds, summaryRulesOf(undefined, {}));
  assert.equal(summary!.books!.scheduled, starts.length);
  assert.equal(summary!.failed, [...text.matchAll(/\bs="false"/g)].length);
  assert.equal(result.source, "JMeter's JTL XML");
  // Cut before its end: refused with the last line read.
  const cut = text.slice(0, text.lastIndexOf('<httpSample'));
  assert.throws(() => importText('jmeter', 'cut.xml', cut), { message: /^cut\.xml:\d+: the XML ends before <\/testResults>: the file is cut short/ });
  assert.throws(() => importText('wrk', 'jtl.xml', text), { message: "jtl.xml:1: this looks like JMeter's JTL XML, not wrk's text output: import it as jmeter" });
});
