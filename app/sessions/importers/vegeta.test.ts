import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { importText } from './index.ts';
import { summarizeRun, summaryRulesOf } from '../../runs/summarize-run.ts';

const fixture = (name: string) => readFileSync(new URL(`../../../tests/fixtures/imports/${name}`, import.meta.url), 'utf8');

function secondsOf(name: string) {
  const result = importText('vegeta', name, fixture(name));
  if (result.kind !== 'per-request') return assert.fail('per-request expected');
  return result;
}

test("vegeta's JSON and CSV of the same results read the same: ns → µs, code 0 an error of the kind its message says", () => {
  const json = secondsOf('vegeta-results.ndjson');
  const csv = secondsOf('vegeta-results.csv');
  assert.deepEqual(csv.seconds, json.seconds);
  assert.equal(json.startedAt, '2020-05-21T12:39:41.000Z');
  assert.equal(json.endedAt, '2020-05-21T12:39:44.900Z');
  const rows = json.seconds.map((s) => ({ requests: s.requests, scheduled: s.scheduled, bytes: s.bytes, durationMs: s.clientMetrics?.durationMs, refused: s.errors.refused, timeouts: s.errors.timeout, '5xx': s.statusClasses['5xx'] }));
  assert.deepEqual(rows, [
    { requests: 2, scheduled: 3, bytes: 44, durationMs: 1000, refused: 1, timeouts: 0, '5xx': 0 },
    { requests: 1, scheduled: 1, bytes: 21, durationMs: 1000, refused: 0, timeouts: 0, '5xx': 1 },
    { requests: 0, scheduled: 0, bytes: 0, durationMs: 1000, refused: 0, timeouts: 0, '5xx': 0 },
    { requests: 0, scheduled: 1, bytes: 0, durationMs: 900, refused: 0, timeouts: 1, '5xx': 0 },
  ]);
  const { summary } = summarizeRun(json.seconds, summaryRulesOf(undefined, {}));
  assert.equal(summary!.failed, 3);
  assert.equal(summary!.books!.balanced, true);
  // 1.2974 ms, 2.5 ms and 5 ms answered; the median is 2.5 ms.
  assert.ok(Math.abs(summary!.p50Us! - 2500) <= 3);
  assert.ok(Math.abs(summary!.maxUs! - 5000) <= 5);
  assert.equal(json.tool.target, 'http://127.0.0.1:8080/hello');
});

test('a damaged vegeta file: the line and what is wrong', () => {
  const [first, second] = fixture('vegeta-results.ndjson').split('\n');
  assert.throws(() => importText('vegeta', 'a', `${first}\n${second!.replace('"latency":2500000', '"latency":-2500000')}`), { message: 'a:2: latency must not be negative' });
  assert.throws(() => importText('vegeta', 'b', `${first}\n${second!.replace('"timestamp":"2020-05-21T14:39:41.250000000+02:00"', '"timestamp":"yesterday"')}`), { message: 'b:2: timestamp is not an RFC 3339 time: "yesterday"' });
  assert.throws(() => importText('vegeta', 'c', `${first}\n${second!.replace('"timestamp":"2020-05-21T14:39:41.250000000+02:00"', '"timestamp":"2021-05-21T14:39:41.250000000+02:00"')}`), { message: /^c:2: this request is more than a week away/ });
  const csv = fixture('vegeta-results.csv').split('\n');
  assert.throws(() => importText('vegeta', 'd', `${csv[0]}\n1590064781250000000,200,NaN,0,22`), { message: /^d:2: a vegeta CSV result has at least 6 fields/ });
  assert.throws(() => importText('vegeta', 'e', `${csv[0]}\n1590064781250000000,200,1e400,0,22,`), { message: 'e:2: latency is not a number: "1e400"' });
  assert.throws(() => importText('vegeta', 'f', `${csv[0]}\n1590064781250000000,200,100,0,22,"unclosed`), { message: /^f:2: a quoted field is not closed/ });
  assert.throws(() => importText('vegeta', 'hey.csv', fixture('hey.csv')), { message: "hey.csv:1: this looks like hey's CSV, not vegeta's results: import it as hey" });
});

test('a vegeta CSV cut inside its last field (tools/vegeta.csv): one line naming the file, the line and the format, nothing read', () => {
  const text = readFileSync(new URL('../../../tests/fixtures/imports/tools/vegeta.csv', import.meta.url), 'utf8');
  const lines = text.split('\n');
  // Cut 10 characters into line 200's last field (its headers, base64): the line still has every field.
  const cutAt = lines.slice(0, 199).join('\n').length + 1 + lines[199]!.lastIndexOf(',') + 11;
  const cut = text.slice(0, cutAt);
  assert.equal(cut.split('\n').at(-1)!.split(',').length, lines[199]!.split(',').length);
  assert.throws(() => importText('vegeta', 'vegeta.csv', cut), { message: "vegeta.csv:200: the file ends inside this line, without its line break: it was cut short (vegeta's CSV results; nothing is stored)" });
  const whole = importText('vegeta', 'vegeta.csv', text);
  assert.equal(whole.kind, 'per-request');
});
