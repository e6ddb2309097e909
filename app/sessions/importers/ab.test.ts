import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { abRunOf } from './ab.ts';
import { importText } from './index.ts';
import { RequestSeries } from './request-series.ts';
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

const tool = (name: string) => readFileSync(new URL(`../../../tests/fixtures/imports/tools/${name}`, import.meta.url), 'utf8');

test("ab's length failures that brought no body are sockets closed without an answer (ab-closed.txt)", () => {
  // 3000 complete, "Length: 30" (the server closed every 100th socket), HTML transferred 35640 = 2970 × 12.
  const result = importText('ab', 'ab-closed.txt', tool('ab-closed.txt'));
  if (result.kind !== 'summary') return assert.fail('summary expected');
  assert.equal(result.summary.errors.closed, 30);
  assert.equal(result.summary.requests, 2970);
  assert.equal(result.summary.status['2xx'], 2970 - 270);
  assert.equal(result.summary.failed, 270 + 30);
  assert.ok(result.missing.some((line) => /30 length failures brought no body/.test(line)), result.missing.join('; '));
});

test("ab's length failures that brought bodies of another length stay answers, and the import says ab cannot tell more (ab-lengths.txt)", () => {
  // 1000 complete, "Length: 40" (every 25th body is longer), HTML transferred 12320 = 960 × 12 + 40 × 20.
  const result = importText('ab', 'ab-lengths.txt', tool('ab-lengths.txt'));
  if (result.kind !== 'summary') return assert.fail('summary expected');
  assert.equal(result.summary.errors.closed, 0);
  assert.equal(result.summary.requests, 1000);
  assert.equal(result.summary.failed, 0);
  assert.ok(result.missing.some((line) => /40 length failures brought 800 bytes of body/.test(line)), result.missing.join('; '));
});

test("ab's -g file with its text report: the seconds add up to ab's own elapsed time (ab-g.tsv, ab-g-run.txt)", () => {
  const report = importText('ab', 'ab-g-run.txt', tool('ab-g-run.txt'));
  if (report.kind !== 'summary') return assert.fail('summary expected');
  const alone = importText('ab', 'ab-g.tsv', tool('ab-g.tsv'));
  const paired = importText('ab', 'ab-g.tsv', tool('ab-g.tsv'), { abRun: abRunOf(report) });
  if (alone.kind !== 'per-request' || paired.kind !== 'per-request') return assert.fail('per-request expected');
  const rules = summaryRulesOf(undefined, {});
  const aloneSummary = summarizeRun(alone.seconds, rules).summary!;
  const pairedSummary = summarizeRun(paired.seconds, rules).summary!;
  // ab: "Time taken for tests: 2.668 seconds", 1124.57 requests/s; the -g file spans 3 whole seconds.
  assert.equal(aloneSummary.seconds, 3);
  assert.ok(alone.missing.some((line) => /over 3 whole seconds, while the run took between 1 and 4 s/.test(line)), alone.missing.join('; '));
  assert.equal(pairedSummary.seconds, 2.668);
  // ab divides by its unrounded time: 1124.57 against 3000 / 2.668 = 1124.44.
  assert.ok(Math.abs(pairedSummary.requestsPerSecond / 1124.57 - 1) < 0.001, `${pairedSummary.requestsPerSecond} req/s`);
  assert.equal(paired.source, "ab's -g TSV with its text report");
  // A report of another run is refused.
  assert.throws(() => importText('ab', 'ab-g.tsv', tool('ab-g.tsv'), { abRun: { seconds: 0.515, requests: 2000 } }), { message: /^ab-g\.tsv: the report counts 2000 complete requests, the -g file 3000: they are not of the same run$/ });
});

test("ab's percentile table takes the (⌊n·p⌋ + 1)-th time, the histogram the ⌈n·p⌉-th: both read off the same run (ab-g.tsv, ab-g-run.txt)", () => {
  const times = tool('ab-g.tsv').trim().split('\n').slice(1).map((line) => Number(line.split('\t')[4])).sort((a, b) => a - b);
  const printed = [...tool('ab-g-run.txt').matchAll(/^\s+(\d+)%\s+(\d+)$/gm)].map(([, p, ms]) => [Number(p), Number(ms)] as const);
  assert.ok(printed.length >= 8);
  for (const [p, ms] of printed) assert.equal(times[Math.floor((times.length * p) / 100)], ms, `ab's ${p} %`);
  const result = importText('ab', 'ab-g.tsv', tool('ab-g.tsv'));
  if (result.kind !== 'per-request') return assert.fail('per-request expected');
  const { summary } = summarizeRun(result.seconds, summaryRulesOf(undefined, {}));
  for (const [p, us] of [[50, summary!.p50Us], [75, summary!.p75Us], [90, summary!.p90Us], [99, summary!.p99Us]] as const) {
    const ms = times[Math.ceil((times.length * p) / 100) - 1]!;
    // Whole ms as in the file; 0 ms is recorded at the histogram's lowest value, 1 µs.
    assert.ok(Math.abs(us! - Math.max(1, ms * 1000)) <= Math.max(1, ms), `p${p}: ${us} µs against ${ms} ms`);
  }
  assert.ok(result.missing.some((line) => line.includes('(⌊n·p⌋ + 1)-th, one rank higher')));
});

test('a -g file sorted by response time, as ab writes it, spread over many seconds: no second is decoded again, and the seconds are those of the same lines in time order', () => {
  // The real file's lines, their start seconds spread over 300 s (more than the 256 seconds kept open).
  const lines = tool('ab-g.tsv').trim().split('\n');
  const spread = lines.slice(1).map((line, index) => {
    const fields = line.split('\t');
    fields[1] = String(Number(fields[1]) + (index % 300));
    return fields;
  });
  const byTime = [...spread].sort((a, b) => Number(a[1]) - Number(b[1]));
  const byResponse = [...spread].sort((a, b) => Number(a[4]) - Number(b[4]));
  const series = new RequestSeries({ failuresListed: false, wholeSeconds: true });
  byResponse.forEach((fields, index) => series.add({ startMs: Number(fields[1]) * 1000, latencyUs: Number(fields[4]) * 1000, outcome: { status: null }, bytes: 0 }, index + 2));
  const sorted = series.seconds();
  assert.equal(series.folds, 0);
  const text = (rows: string[][]) => [lines[0], ...rows.map((fields) => fields.join('\t'))].join('\n') + '\n';
  const inOrder = importText('ab', 'by-time.tsv', text(byTime));
  const outOfOrder = importText('ab', 'by-response.tsv', text(byResponse));
  if (inOrder.kind !== 'per-request' || outOfOrder.kind !== 'per-request') return assert.fail('per-request expected');
  assert.ok(sorted.length > 300, `${sorted.length} seconds`);
  assert.deepEqual(outOfOrder.seconds, inOrder.seconds);
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
