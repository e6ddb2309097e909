import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { importText } from './index.ts';
import { summarizeRun, summaryRulesOf } from '../../runs/summarize-run.ts';

const fixture = (name: string) => readFileSync(new URL(`../../../tests/fixtures/imports/${name}`, import.meta.url), 'utf8');

test("ab's text: the figures ab printed, in its whole milliseconds (ab-hello.txt)", () => {
  const result = importText('ab', 'ab-hello.txt', fixture('ab-hello.txt'));
  assert.equal(result.kind, 'summary');
  if (result.kind !== 'summary') return;
  const { summary } = result;
  // "Total: 0 2 2.7 2 24" and the table 50% 2, 75% 3, 90% 4, 99% 21, 100% 24.
  assert.deepEqual([summary.meanUs, summary.stdDevUs, summary.p50Us, summary.p75Us, summary.p90Us, summary.p99Us, summary.maxUs], [2000, 2700, 2000, 3000, 4000, 21000, 24000]);
  assert.deepEqual([summary.requests, summary.seconds, summary.requestsPerSecond, summary.bytes], [2000, 0.515, 3881.32, 226000]);
  assert.equal(summary.failed, 0);
  assert.deepEqual(result.load, { connections: 10, requests: 2000 });
  assert.deepEqual(result.tool, { version: '2.3', target: 'http://127.0.0.1:18089/hello' });
  assert.match(result.resolution, /whole milliseconds/);
});

test("ab's failed requests by kind and its non-2xx answers (ab-failures.txt)", () => {
  const result = importText('ab', 'ab-failures.txt', fixture('ab-failures.txt'));
  if (result.kind !== 'summary') return assert.fail('summary expected');
  assert.equal(result.summary.non2xx, 231);
  assert.equal(result.summary.status['2xx'], 3000 - 231);
  // The 10 failures are all "Length": answers of another length, not errors.
  assert.deepEqual(result.summary.errors, { timeout: 0, refused: 0, reset: 0, closed: 0, other: 0 });
  assert.equal(result.summary.failed, 231);
  assert.ok(result.missing.some((line) => line.includes('10 length failures')));
});

test("ab's -g TSV: per-second rows and a real histogram that agree with ab's own table of the same run (ab-g.tsv, ab-g-run.txt)", () => {
  const result = importText('ab', 'ab-g.tsv', fixture('ab-g.tsv'));
  if (result.kind !== 'per-request') return assert.fail('per-request expected');
  assert.deepEqual(result.seconds.map((second) => second.requests), [232, 958, 968, 842]);
  assert.ok(result.seconds.every((second) => second.scheduled === null && second.clientMetrics?.durationMs === 1000), 'no books (failures are not listed); whole seconds');
  assert.equal(result.startedAt, new Date(1795523690 * 1000).toISOString());
  const { summary, histogram } = summarizeRun(result.seconds, summaryRulesOf(undefined, {}));
  assert.equal(histogram!.totalCount, 3000);
  assert.equal(summary!.requests, 3000);
  assert.equal(summary!.books, null);
  // ab printed for this run: 50% 1, 99% 20, 100% 25 (ms), each rounded to the ms as in the file.
  const near = (us: number | null, ms: number) => assert.ok(us !== null && Math.abs(us - ms * 1000) <= ms, `${us} µs is ${ms} ms within HDR resolution`);
  near(summary!.p50Us, 1);
  near(summary!.p99Us, 20);
  near(summary!.maxUs, 25);
  assert.match(result.absent.failed!, /answered requests only/);
});

test('a damaged ab file: the line and what is wrong', () => {
  const tsv = fixture('ab-g.tsv').split('\n');
  assert.throws(() => importText('ab', 'a.tsv', [...tsv.slice(0, 3), 'Tue Nov 24 12:34:52 2026\t1795523692\t0\t0'].join('\n')), { message: /^a\.tsv:4: ab's -g lines have 6 tab-separated fields, this one has 4: truncated\?$/ });
  assert.throws(() => importText('ab', 'b.tsv', [...tsv.slice(0, 2), 'Tue Nov 24 12:34:52 2026\t1795523692\t0\t0\tNaN\t0'].join('\n')), { message: /^b\.tsv:3: ttime is not a number: "NaN"$/ });
  assert.throws(() => importText('ab', 'c.tsv', [...tsv.slice(0, 2), 'Tue Nov 24 12:34:52 2026\t1795523692\t0\t0\t-3\t0'].join('\n')), { message: /^c\.tsv:3: ttime must not be negative/ });
  assert.throws(() => importText('ab', 'd.tsv', [...tsv.slice(0, 2), 'Tue Nov 24 12:34:52 2026\t1795523692\t0\t0\t99999999999\t0'].join('\n')), { message: /^d\.tsv:3: ttime is more than an hour/ });
  const text = fixture('ab-hello.txt');
  assert.throws(() => importText('ab', 'cut.txt', text.slice(0, text.indexOf('Connection Times'))), { message: 'cut.txt: the file has no "Total:" connection-times line: it is truncated' });
  assert.throws(() => importText('ab', 'wrk.txt', fixture('wrk-latency.txt')), { message: "wrk.txt:1: this looks like wrk's text output, not ab's output: import it as wrk" });
});
