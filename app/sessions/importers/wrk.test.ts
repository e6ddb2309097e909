import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { importText } from './index.ts';
import { parseDurationUs, parseSizeBytes } from './import-numbers.ts';

const fixture = (name: string) => readFileSync(new URL(`../../../tests/fixtures/imports/${name}`, import.meta.url), 'utf8');

function summaryOf(name: string) {
  const result = importText('wrk', name, fixture(name));
  assert.equal(result.kind, 'summary');
  return { result, summary: result.kind === 'summary' ? result.summary : assert.fail() };
}

test("wrk --latency: the figures exactly as wrk printed them (wrk-latency.txt)", () => {
  const { result, summary } = summaryOf('wrk-latency.txt');
  // "Latency 3.29ms 4.31ms 32.94ms", the table 50% 1.58ms … 99% 20.27ms, "28762 requests in 3.10s, 4.91MB read".
  assert.deepEqual(
    [summary.meanUs, summary.stdDevUs, summary.maxUs, summary.p50Us, summary.p75Us, summary.p90Us, summary.p99Us, summary.p999Us],
    [3290, 4310, 32940, 1580, 2840, 9040, 20270, null],
  );
  assert.equal(summary.requests, 28762);
  assert.equal(summary.seconds, 3.1);
  assert.equal(summary.requestsPerSecond, 9278.11);
  assert.equal(summary.bytes, Math.round(4.91 * 1024 * 1024));
  assert.equal(summary.bytesPerSecond, Math.round(1.58 * 1024 * 1024));
  assert.equal(summary.failed, 0);
  assert.equal(summary.books, null, 'wrk keeps no books of scheduled requests');
  assert.deepEqual(summary.bands, []);
  assert.deepEqual(result.load, { connections: 20, durationS: 3 });
  assert.equal(result.tool.target, 'http://127.0.0.1:18089/hello');
  assert.equal(result.absent.p50, undefined);
  assert.match(result.absent.bands!, /no histogram/);
  assert.ok(result.missing.some((line) => /no per-second series/.test(line)));
});

test('wrk without --latency: mean, stdev and max only; the percentiles are absent with the reason (wrk-non2xx.txt)', () => {
  const { result, summary } = summaryOf('wrk-non2xx.txt');
  assert.deepEqual([summary.meanUs, summary.stdDevUs, summary.maxUs], [3250, 4330, 22680]);
  assert.deepEqual([summary.p50Us, summary.p90Us, summary.p99Us], [null, null, null]);
  for (const figure of ['p50', 'p75', 'p90', 'p99'] as const) assert.match(result.absent[figure]!, /--latency/);
  assert.equal(summary.non2xx, 3061);
  assert.equal(summary.failed, 3061);
  assert.equal(summary.requests, 29418);
});

test('wrk socket errors: connect refused, read and write other, timeouts (wrk-socket-errors.txt)', () => {
  const { summary } = summaryOf('wrk-socket-errors.txt');
  assert.deepEqual(summary.errors, { timeout: 19, refused: 0, reset: 0, closed: 0, other: 34 });
  assert.equal(summary.failed, 1039 + 34 + 19);
  assert.equal(summary.p99Us, 19900);
});

test("wrk's units convert exactly", () => {
  assert.equal(parseDurationUs('456.78us', 1, 'x'), 456.78);
  assert.equal(parseDurationUs('1.23ms', 1, 'x'), 1230);
  assert.equal(parseDurationUs('1.20s', 1, 'x'), 1_200_000);
  assert.equal(parseDurationUs('2.00m', 1, 'x'), 120_000_000);
  assert.equal(parseSizeBytes('609.73KB', 1, 'x'), Math.round(609.73 * 1024));
  assert.throws(() => parseDurationUs('1.2parsecs', 1, 'x'), /not a duration/);
});

test('a truncated, damaged or foreign file: one line naming the file and line, nothing imported', () => {
  const text = fixture('wrk-latency.txt');
  const truncated = text.slice(0, text.indexOf('Requests/sec'));
  assert.throws(() => importText('wrk', 'cut.txt', truncated), { message: /^cut\.txt: the file ends before wrk's "Requests\/sec:" line: it is truncated$/ });
  const nan = text.replace('3.29ms', 'NaNms');
  assert.throws(() => importText('wrk', 'nan.txt', nan), { message: /^nan\.txt:4: latency mean is not a duration like 1\.23ms/ });
  const negative = text.replace('1.58ms', '-1.58ms');
  assert.throws(() => importText('wrk', 'neg.txt', negative), { message: /^neg\.txt:7: 50% latency is not a duration/ });
  assert.throws(() => importText('wrk', 'k6.json', fixture('k6-points.ndjson')), { message: "k6.json:1: this looks like k6's --out json NDJSON, not wrk's text output: import it as k6" });
  assert.throws(() => importText('wrk', 'empty.txt', '\n\n'), { message: 'empty.txt: the file is empty' });
  assert.throws(() => importText('wrk', 'long.txt', `${'x'.repeat(5 * 1024 * 1024)}\n`), { message: /^long\.txt:1: the line is longer than 4 MiB/ });
});

// Files wrk2 itself wrote (scripts/make-import-fixtures.ts); the expected figures are read from the same text here.
const wrk2File = (name: string) => readFileSync(new URL(`../../../tests/fixtures/imports/tools/${name}`, import.meta.url), 'utf8');
/** The percentile lines of the table after `heading` ("99.900%   22.50ms" → [99.9, µs]). */
function tableAfter(text: string, heading: string): Map<number, number> {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line.includes(heading));
  const rows = new Map<number, number>();
  for (const line of lines.slice(start + 1)) {
    const match = /^\s*(\d+\.\d+)%\s+(\S+)$/.exec(line);
    if (!match) break;
    rows.set(Number(match[1]), parseDurationUs(match[2]!, null, 'row'));
  }
  return rows;
}

test("wrk2's extended latency table (a real run at -R 500): its recorded percentiles, p99.9 too, and what its latencies mean", () => {
  const text = wrk2File('wrk2-latency.txt');
  const result = importText('wrk', 'wrk2.txt', text);
  if (result.kind !== 'summary') return assert.fail('summary expected');
  const table = tableAfter(text, 'Recorded Latency');
  assert.ok(table.size >= 8, 'the file has the longer table');
  const { summary } = result;
  assert.deepEqual([summary.p50Us, summary.p75Us, summary.p90Us, summary.p99Us, summary.p999Us], [50, 75, 90, 99, 99.9].map((p) => table.get(p)));
  assert.equal(summary.requests, Number(/(\d+) requests in/.exec(text)![1]));
  assert.equal(summary.non2xx, Number(/Non-2xx or 3xx responses: (\d+)/.exec(text)![1]));
  assert.equal(result.source, "wrk2's text output with --latency");
  assert.ok(result.missing.some((line) => line.includes('scheduled send time')));
});

test("wrk2 -U prints an uncorrected table after the recorded one: the recorded one is read, and the import says so", () => {
  const text = wrk2File('wrk2-uncorrected.txt');
  const result = importText('wrk', 'wrk2-u.txt', text);
  if (result.kind !== 'summary') return assert.fail('summary expected');
  const recorded = tableAfter(text, 'Recorded Latency');
  const uncorrected = tableAfter(text, 'Uncorrected Latency');
  assert.equal(uncorrected.size, recorded.size);
  assert.equal(result.summary.p50Us, recorded.get(50));
  assert.equal(result.summary.p99Us, recorded.get(99));
  assert.ok(result.missing.some((line) => line.includes('uncorrected table (-U) is not read')));
});
