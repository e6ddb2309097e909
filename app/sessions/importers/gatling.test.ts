// Gatling's results read from the files Gatling 3.9.5 wrote against a loopback server
// (tests/fixtures/imports/tools/gatling-*, made by scripts/make-import-fixtures.ts): its
// simulation.log per request, and its console's Global Information block, each checked against
// the file's own records and lines.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { GATLING_RATE_LABEL, gatlingOutcome } from './gatling.ts';
import { importText } from './index.ts';

const tool = (name: string) => readFileSync(new URL(`../../../tests/fixtures/imports/tools/${name}`, import.meta.url), 'utf8');

test("Gatling's simulation.log: a REQUEST record per request, OK an answer, a KO with its status an answer of it, a premature close none", () => {
  const text = tool('gatling-simulation.log');
  const records = text.split('\n').filter((line) => line.startsWith('REQUEST\t')).map((line) => line.split('\t'));
  const ko = records.filter((fields) => fields[5] === 'KO');
  const found500 = ko.filter((fields) => /found 500$/.test(fields[6]!)).length;
  assert.ok(found500 > 0 && ko.length > found500, 'the fixture has 500 answers and sockets closed unanswered');
  const result = importText('gatling', 'simulation.log', text);
  if (result.kind !== 'per-request') return assert.fail('per request expected');
  const { seconds } = result;
  const sum = (pick: (second: (typeof seconds)[number]) => number) => seconds.reduce((total, second) => total + pick(second), 0);
  assert.equal(sum((second) => second.requests), records.length - (ko.length - found500));
  assert.equal(sum((second) => second.errors.closed ?? 0), ko.length - found500);
  assert.equal(sum((second) => second.statusClasses['5xx'] ?? 0), found500);
  const starts = records.map((fields) => Number(fields[3]));
  assert.equal(result.startedAt, new Date(Math.min(...starts)).toISOString());
  assert.equal(result.tool.version, '3.9.5');
  assert.throws(() => importText('vegeta', 'simulation.log', text), { message: /^simulation\.log:1: this looks like Gatling's simulation\.log, not vegeta's results: import it as gatling$/ });
});

test("Gatling's console (its Global Information block): the figures of all requests, KO failed without an answer, its distribution and rate kept, labelled", () => {
  const text = tool('gatling-console.txt');
  const line = (name: string) => new RegExp(`^> ${name}\\s+(\\d+(?:\\.\\d+)?)(?: \\(OK=\\s*(\\S+)\\s+KO=\\s*(\\S+))?`, 'm').exec(text)!;
  const [, count, , ko] = line('request count');
  const result = importText('gatling', 'console.txt', text);
  if (result.kind !== 'summary') return assert.fail('summary expected');
  assert.equal(result.summary.requests, Number(count) - Number(ko));
  assert.equal(result.summary.failed, Number(ko));
  assert.equal(result.summary.seconds, Number(count) / Number(line('mean requests/sec')[1]));
  assert.deepEqual(
    [result.summary.meanUs, result.summary.stdDevUs, result.summary.p50Us, result.summary.p75Us, result.summary.p99Us, result.summary.maxUs],
    ['mean response time', 'std deviation', 'response time 50th percentile', 'response time 75th percentile', 'response time 99th percentile', 'max response time'].map((name) => Number(line(name)[1]) * 1000),
  );
  assert.equal(result.toolFigures![GATLING_RATE_LABEL], Number(line('mean requests/sec')[1]));
  assert.equal(result.toolFigures!["Gatling's response time distribution: t >= 1200 ms"], Number(/^> t >= 1200 ms\s+(\d+)/m.exec(text)![1]));
  assert.equal(result.absent.p90, 'Gatling printed other percentiles');
  const cut = text.slice(0, text.indexOf('---- Global Information'));
  assert.throws(() => importText('gatling', 'cut.txt', cut), { message: /no "---- Global Information ----" block/ });
  assert.throws(() => importText('wrk', 'console.txt', text), { message: "console.txt:1: this looks like Gatling's console output, not wrk's text output: import it as gatling" });
});

test("a KO's message: 'found NNN' is an answer of that status; timeouts, refusals and premature closes got none; a failed check on an answer is other", () => {
  assert.deepEqual(gatlingOutcome('status.find.in([200, 209], 304), found 503'), { status: 503 });
  assert.deepEqual(gatlingOutcome('Request timeout to 127.0.0.1/127.0.0.1:8080 after 60000 ms'), { error: 'timeout' });
  assert.deepEqual(gatlingOutcome('i.n.c.AbstractChannel$AnnotatedConnectException: Connection refused: /127.0.0.1:9'), { error: 'refused' });
  assert.deepEqual(gatlingOutcome('j.i.IOException: Premature close'), { error: 'closed' });
  assert.deepEqual(gatlingOutcome('substring(hello).find.exists, found nothing'), { error: 'other' });
});

test('a simulation.log of Gatling 2 or a binary one (3.12+) is refused with what to import instead', () => {
  assert.throws(() => importText('gatling', 'old.log', 'RUN\tSim\tsim\t1430000000000\t \t2.0\n'), { message: /^old\.log:1: this simulation\.log is Gatling 2\.0's/ });
  assert.throws(() => importText('gatling', 'new.log', '\u0000\u0001\u0002binary\n'), { message: /binary simulation\.log \(Gatling 3\.12 or later\)/ });
});
