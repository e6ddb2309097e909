// The summary-only formats read from files their tools wrote against a loopback server
// (tests/fixtures/imports/tools/, made by scripts/make-import-fixtures.ts): bombardier, siege and
// autocannon, each figure checked against the file's own numbers.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { AUTOCANNON_RATE_LABEL } from './autocannon.ts';
import { BOMBARDIER_RATE_LABEL } from './bombardier.ts';
import { importText } from './index.ts';
import { LOADTEST_RATE_LABEL } from './loadtest.ts';
import { LOCUST_RATE_LABEL } from './locust.ts';

const tool = (name: string) => readFileSync(new URL(`../../../tests/fixtures/imports/tools/${name}`, import.meta.url), 'utf8');

test("bombardier's JSON (bombardier.json): answers by class over its time taken, requests without an answer by its errors, latencies in µs; its rps mean kept, labelled", () => {
  const file = JSON.parse(tool('bombardier.json')) as { spec: { numberOfConnections: number; numberOfRequests: number; url: string }; result: Record<string, number> & { latency: { mean: number; stddev: number; max: number; percentiles: Record<string, number> }; rps: { mean: number } } };
  const { result: r } = file;
  const result = importText('bombardier', 'bombardier.json', tool('bombardier.json'));
  if (result.kind !== 'summary') return assert.fail('summary expected');
  const answered = r.req1xx! + r.req2xx! + r.req3xx! + r.req4xx! + r.req5xx!;
  assert.equal(result.summary.requests, answered);
  assert.equal(result.summary.requestsPerSecond, answered / r.timeTakenSeconds!);
  assert.equal(result.summary.non2xx, answered - r.req2xx!);
  assert.equal(result.summary.failed, answered - r.req2xx! + r.others!);
  assert.deepEqual([result.summary.meanUs, result.summary.stdDevUs, result.summary.maxUs, result.summary.p50Us, result.summary.p99Us], [r.latency.mean, r.latency.stddev, r.latency.max, r.latency.percentiles['50'], r.latency.percentiles['99']]);
  assert.equal(result.toolFigures![BOMBARDIER_RATE_LABEL], r.rps.mean);
  assert.deepEqual(result.load, { connections: file.spec.numberOfConnections, requests: file.spec.numberOfRequests });
  assert.equal(result.tool.target, file.spec.url);
});

test("siege's JSON summary (siege.json, after siege's first-use notice): transactions are answers, failed its failed transactions, times in its 10 ms", () => {
  const result = importText('siege', 'siege.json', tool('siege.json'));
  if (result.kind !== 'summary') return assert.fail('summary expected');
  // "transactions": 900, "elapsed_time": 3.25 (the log's line of this run), "failed_transactions": 100, "response_time": 0.02, "longest_transaction": 0.12.
  const json = JSON.parse(tool('siege.json').slice(tool('siege.json').indexOf('{'), tool('siege.json').indexOf('}') + 1)) as Record<string, number>;
  assert.equal(result.summary.requests, json.transactions);
  assert.equal(result.summary.failed, json.failed_transactions);
  assert.equal(result.summary.seconds, json.elapsed_time);
  assert.equal(result.summary.meanUs, json.response_time! * 1_000_000);
  assert.equal(result.summary.maxUs, json.longest_transaction! * 1_000_000);
  assert.match(result.absent.p50!, /mean and the extremes/);
  assert.equal(result.source, "siege's JSON summary");
});

test("siege's text summary (siege.txt) and its log (siege.log, two runs: the last is read) give the same run's figures", () => {
  const text = importText('siege', 'siege.txt', tool('siege.txt'));
  const log = importText('siege', 'siege.log', tool('siege.log'));
  if (text.kind !== 'summary' || log.kind !== 'summary') return assert.fail('summary expected');
  // "Transactions: 353 hits", "Elapsed time: 1.69 secs", "Failed transactions: 39"; the log's last line: 353, 1.69, …, 39.
  for (const result of [text, log]) assert.deepEqual([result.summary.requests, result.summary.seconds, result.summary.failed], [353, 1.69, 39]);
  assert.equal(text.summary.maxUs, 240_000);
  assert.equal(log.summary.maxUs, null);
  assert.ok(log.missing.some((line) => /the log holds 2 runs: the last, of 2026-11-27 13:23:19, is read/.test(line)), log.missing.join('; '));
});

test("autocannon's JSON (autocannon.json): answers over its duration, latencies in ms → µs, the sent requests it neither answered nor counted said", () => {
  const json = JSON.parse(tool('autocannon.json')) as Record<string, number> & { latency: Record<string, number>; requests: Record<string, number>; start: string; url: string };
  const result = importText('autocannon', 'autocannon.json', tool('autocannon.json'));
  if (result.kind !== 'summary') return assert.fail('summary expected');
  assert.equal(result.summary.requests, json.requests.total);
  assert.equal(result.summary.requestsPerSecond, json.requests.total! / json.duration!);
  assert.equal(result.summary.non2xx, json.non2xx);
  assert.deepEqual([result.summary.p50Us, result.summary.p99Us, result.summary.maxUs], [json.latency.p50! * 1000, json.latency.p99! * 1000, json.latency.max! * 1000]);
  assert.equal(result.toolFigures![AUTOCANNON_RATE_LABEL], json.requests.mean);
  assert.equal(result.startedAt, json.start);
  const unaccounted = json.requests.sent! - json.requests.total! - json.errors!;
  assert.ok(unaccounted > 0, 'the server closed some sockets unanswered');
  assert.ok(result.missing.some((line) => line.startsWith(`${unaccounted} requests sent were neither answered nor counted`)));
});

test('a summary file imported as another format names what it looks like', () => {
  assert.throws(() => importText('wrk', 'b.json', tool('bombardier.json')), { message: "b.json:1: this looks like bombardier's JSON, not wrk's text output: import it as bombardier" });
  assert.throws(() => importText('k6', 's.json', tool('siege.json')), { message: /^s\.json(:\d+)?: this looks like siege's JSON summary, not k6's results: import it as siege$/ });
  assert.throws(() => importText('oha', 'a.json', tool('autocannon.json')), { message: /^a\.json(:\d+)?: this looks like autocannon's JSON, not oha's output: import it as autocannon$/ });
  assert.throws(() => importText('hey', 'siege.log', tool('siege.log')), { message: "siege.log:1: this looks like siege's output, not hey's CSV: import it as siege" });
});

test("loadtest's text output (loadtest.txt): its progress lines passed over; the -1 errors failed without an answer; percentiles in whole ms", () => {
  const result = importText('loadtest', 'loadtest.txt', tool('loadtest.txt'));
  if (result.kind !== 'summary') return assert.fail('summary expected');
  // "Completed requests: 2000", "Total errors: 200", "Total time: 27.388 s", "Mean latency: 89.7 ms", 50% 77, 90% 143, 99% 482, 100% 770 ms, "-1: 200 errors".
  assert.deepEqual([result.summary.requests, result.summary.failed, result.summary.seconds], [1800, 200, 27.388]);
  assert.equal(result.summary.requestsPerSecond, 1800 / 27.388);
  assert.deepEqual([result.summary.meanUs, result.summary.p50Us, result.summary.p90Us, result.summary.p99Us, result.summary.maxUs], [89700, 77000, 143000, 482000, 770000]);
  assert.equal(result.toolFigures![LOADTEST_RATE_LABEL], 73);
  assert.ok(result.missing.some((line) => line.startsWith('200 errors of code -1 counted as failed without an answer')));
  assert.deepEqual(result.load, { connections: 37, requests: 2000 });
  assert.throws(() => importText('wrk', 'lt.txt', tool('loadtest.txt')), { message: "lt.txt:1: this looks like loadtest's output, not wrk's text output: import it as loadtest" });
});

test("loadtest's older layout (Max time, Concurrency level, the rate printed twice): the same reader, the last rate the effective one", () => {
  const text = ['Max time (s):        60', 'Concurrency level:   15', 'Agent:               none', 'Requests per second: 700', '', 'Completed requests:  41337', 'Total errors:        0', 'Total time:          60.002348360999996 s', 'Requests per second: 689', 'Mean latency:        500.3 ms', '', 'Percentage of the requests served within a certain time', '  50%      503 ms', '  90%      506 ms', '  95%      507 ms', '  99%      512 ms', ' 100%      527 ms (longest request)', ''].join('\n');
  const result = importText('loadtest', 'older.txt', text);
  if (result.kind !== 'summary') return assert.fail('summary expected');
  assert.deepEqual([result.summary.requests, result.summary.failed, result.summary.p50Us, result.summary.maxUs], [41337, 0, 503000, 527000]);
  assert.equal(result.toolFigures![LOADTEST_RATE_LABEL], 689);
  assert.deepEqual(result.load, { connections: 15, durationS: 60 });
});

test("Artillery's JSON report (artillery.json): answers and errors from its aggregate counters, http.response_time in ms → µs, its length from the first metric to the last", () => {
  const report = JSON.parse(tool('artillery.json')) as { aggregate: { counters: Record<string, number>; summaries: Record<string, Record<string, number>>; firstMetricAt: number; lastMetricAt: number } };
  const { counters, summaries, firstMetricAt, lastMetricAt } = report.aggregate;
  const result = importText('artillery', 'artillery.json', tool('artillery.json'));
  if (result.kind !== 'summary') return assert.fail('summary expected');
  assert.equal(result.summary.requests, counters['http.responses']);
  assert.equal(result.summary.errors.reset, counters['errors.ECONNRESET']);
  assert.equal(result.summary.non2xx, counters['http.codes.500']);
  assert.equal(result.summary.seconds, (lastMetricAt - firstMetricAt) / 1000);
  const times = summaries['http.response_time']!;
  assert.deepEqual([result.summary.meanUs, result.summary.p50Us, result.summary.p99Us, result.summary.maxUs], [times.mean! * 1000, times.p50! * 1000, times.p99! * 1000, times.max! * 1000]);
  assert.equal(result.startedAt, new Date(firstMetricAt).toISOString());
  assert.throws(() => importText('autocannon', 'a.json', tool('artillery.json')), { message: /^a\.json(:\d+)?: this looks like Artillery's JSON report, not autocannon's JSON: import it as artillery$/ });
});

test("Locust's --csv statistics (locust_stats.csv): the Aggregated row, its run length from its count over its Requests/s, failures failed without an answer; its history file is pointed at the stats", () => {
  const [header, , aggregated] = tool('locust_stats.csv').trim().split('\n').map((line) => line.split(','));
  const row = Object.fromEntries(header!.map((name, index) => [name, aggregated![index]!]));
  assert.equal(row.Name, 'Aggregated');
  const result = importText('locust', 'locust_stats.csv', tool('locust_stats.csv'));
  if (result.kind !== 'summary') return assert.fail('summary expected');
  const count = Number(row['Request Count']);
  const failures = Number(row['Failure Count']);
  assert.ok(failures > 0, "/fail answers every 10th with 500, which Locust fails");
  assert.equal(result.summary.requests, count - failures);
  assert.equal(result.summary.failed, failures);
  assert.equal(result.summary.seconds, count / Number(row['Requests/s']));
  assert.ok(result.summary.requestsPerSecond < Number(row['Requests/s']), 'answers per second leave the failures out');
  assert.equal(result.toolFigures![LOCUST_RATE_LABEL], Number(row['Requests/s']));
  assert.deepEqual([result.summary.meanUs, result.summary.p50Us, result.summary.p99Us, result.summary.maxUs], [Number(row['Average Response Time']) * 1000, Number(row['50%']) * 1000, Number(row['99%']) * 1000, Number(row['Max Response Time']) * 1000]);
  assert.ok(result.missing.some((line) => line.startsWith(`${failures} failures counted as failed without an answer`)));
  assert.throws(() => importText('locust', 'locust_stats_history.csv', tool('locust_stats_history.csv')), { message: /^locust_stats_history\.csv:1: this is Locust's statistics history/ });
  assert.throws(() => importText('wrk', 'stats.csv', tool('locust_stats.csv')), { message: "stats.csv:1: this looks like Locust's _stats.csv, not wrk's text output: import it as locust" });
  assert.throws(() => importText('locust', 'cut.csv', tool('locust_stats.csv').split('\n').slice(0, 2).join('\n') + '\n'), { message: /no "Aggregated" row/ });
});

test('a file of another tool, pretty-printed or not, is named by what it looks like, not refused on its first line alone', () => {
  // Each file's first line alone ("{", "** SIEGE …") tells nothing; the lines after it do.
  const cases: Array<[string, Parameters<typeof importText>[0], string]> = [
    ['oha.json', 'wrk', "oha.json:1: this looks like oha's JSON output, not wrk's text output: import it as oha"],
    ['oha.json', 'hey', "oha.json:1: this looks like oha's JSON output, not hey's CSV: import it as oha"],
    ['siege.txt', 'wrk', "siege.txt:1: this looks like siege's output, not wrk's text output: import it as siege"],
    ['bombardier.json', 'ab', "bombardier.json:1: this looks like bombardier's JSON, not ab's output: import it as bombardier"],
    ['jmeter.xml', 'vegeta', /^jmeter\.xml:\d+: this looks like JMeter's JTL XML, not vegeta's results: import it as jmeter$/ as unknown as string],
  ];
  for (const [file, format, message] of cases) {
    assert.throws(() => importText(format, file, tool(file)), { message }, `${file} as ${format}`);
  }
});
