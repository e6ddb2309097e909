// Tests of the seeds' published figures: the shipped files parse and belong to their studies (each
// row's template is one the study runs, or none), their figures hang together (percentiles in order,
// counts that add up), they hold each seed's finding, and a broken file names its problems and lines.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { parsePublishedResults, publishedColumns, publishedRowMatches, publishedTarget, sessionsRunning, type PublishedResults, type PublishedRow } from './published-results.ts';
import { parseStudy, type Study } from './studies.ts';

const STUDIES_DIR = join(import.meta.dirname, '..', '..', 'resources', 'studies');
const PUBLISHED_DIR = join(STUDIES_DIR, 'published');

function shipped(): Map<string, PublishedResults> {
  const all = new Map<string, PublishedResults>();
  for (const file of readdirSync(PUBLISHED_DIR)) {
    const published = parsePublishedResults(readFileSync(join(PUBLISHED_DIR, file), 'utf8'));
    assert.notEqual(typeof published, 'string', `${file}: ${String(published)}`);
    all.set(file, published as PublishedResults);
  }
  return all;
}

function studyOf(id: string): Study {
  const study = parseStudy(readFileSync(join(STUDIES_DIR, `${id}.yaml`), 'utf8'));
  assert.notEqual(typeof study, 'string', String(study));
  return study as Study;
}

function row(published: PublishedResults, label: string, step?: string, endpoint?: string): PublishedRow {
  const found = published.results.find((candidate) => candidate.label === label && (step === undefined || candidate.step.startsWith(step)) && (endpoint === undefined || candidate.endpoint === endpoint));
  assert.ok(found, `a row for ${label} ${step ?? ''} ${endpoint ?? ''}`);
  return found;
}

const rps = (found: PublishedRow) => found.figures.requestsPerSecond!;

describe('the seeds’ published figures', () => {
  test('one file per seed study, each of its study, every template one the study runs', () => {
    const all = shipped();
    assert.deepEqual([...all.keys()].sort(), ['ab-fixed-count.yaml', 'gatling-file.yaml', 'loadtest-sleep.yaml', 'siege-mixed.yaml', 'wrk-connections.yaml']);
    for (const [file, published] of all) {
      assert.equal(`${published.study}.yaml`, file);
      const study = studyOf(published.study);
      for (const entry of published.results) {
        const target = publishedTarget(entry);
        if (target === null) continue;
        assert.ok(
          study.templates.some((template) => publishedRowMatches(entry, { templateId: template.templateId, variant: template.variant, knobs: template.knobs })),
          `${file}: ${entry.label} stands for ${JSON.stringify(target)}, which ${published.study} does not run`,
        );
      }
    }
  });

  test('figures hang together: percentiles in order, min ≤ mean ≤ max, buckets that add up to the requests', () => {
    for (const [file, published] of shipped()) {
      for (const entry of published.results) {
        const f = entry.figures;
        const where = `${file}: ${entry.label} ${entry.step}`;
        const ordered = [f.minMs, f.p50Ms, f.p66Ms, f.p75Ms, f.p80Ms, f.p90Ms, f.p95Ms, f.p98Ms, f.p99Ms, f.maxMs].filter((value) => value !== undefined);
        assert.deepEqual(ordered, [...ordered].sort((a, b) => a - b), `${where}: percentiles in order`);
        if (f.meanMs !== undefined && f.maxMs !== undefined) assert.ok(f.meanMs <= f.maxMs, `${where}: mean ≤ max`);
        if (f.under800 !== undefined) assert.equal(f.under800 + f.from800To1200! + f.over1200! + f.failed!, f.requests, `${where}: the buckets and the failures are every request`);
        if (f.failed !== undefined && f.requests !== undefined) assert.ok(f.failed <= f.requests || published.study === 'siege-mixed', `${where}: failed ≤ requests`);
      }
      assert.ok(publishedColumns(published.results).includes('requestsPerSecond'), `${file}: every seed printed a rate`);
    }
  });

  test('each file holds its seed’s finding', () => {
    const all = shipped();
    const ab = all.get('ab-fixed-count.yaml')!;
    assert.ok(rps(row(ab, 'Node.js hello world')) > 1.5 * rps(row(ab, 'Apache 2.2.20, static file')), 'ab: Node about 1.6× Apache');
    const loadtest = all.get('loadtest-sleep.yaml')!;
    assert.ok(row(loadtest, 'Spring Boot, sync controller').figures.p99Ms! > 40 * row(loadtest, 'Spring Boot, async controller').figures.p99Ms!, 'loadtest: sync’s tail tens of seconds, async’s the operation’s 500 ms');
    const wrk = all.get('wrk-connections.yaml')!;
    for (const connections of ['10 ', '100 ', '1000 ', '10000 ']) {
      assert.ok(rps(row(wrk, 'Vert.x', connections)) > 3 * rps(row(wrk, 'Spring Boot on Tomcat 8.5', connections)), `wrk: Vert.x far ahead at ${connections}connections`);
    }
    const gatling = all.get('gatling-file.yaml')!;
    // Every server tops out at about the same rate: the link, not the servers, set the ceiling.
    const top = ['Servlet BIO', 'Servlet NIO', 'Node.js', 'Node.js sync', 'Spray'].map((label) => Math.max(...gatling.results.filter((entry) => entry.label === label).map(rps)));
    assert.ok(Math.max(...top) < 1.3 * Math.min(...top), `gatling: every server’s best rate within 30 % (${top.join(', ')})`);
    // Its note says its client sent late: a run of 30 s of arrivals that lasted longer than 30 s
    // plus its longest answer sent its last requests after their schedule, by at least the difference.
    const lateBy = gatling.results.map((entry) => entry.figures.requests! / rps(entry) - 30 - entry.figures.maxMs! / 1000);
    const late = lateBy.filter((seconds) => seconds > 0.5);
    assert.equal(late.length, 17, `gatling: 17 of the 20 runs sent late (${lateBy.map((seconds) => seconds.toFixed(1)).join(', ')})`);
    assert.match(gatling.note!, new RegExp(`in ${late.length} of the ${lateBy.length} runs .* at least ${Math.round(Math.min(...late))}–${Math.round(Math.max(...late))} s behind their schedule`));
    const siege = all.get('siege-mixed.yaml')!;
    assert.ok(rps(row(siege, 'Vertx (Rhino)', undefined, '/concat?n=10000')) < rps(row(siege, 'Node.js', undefined, '/concat?n=10000')), 'siege: Rhino loses on concat');
    assert.ok(row(siege, 'Node.js', undefined, '/json').figures.memoryMb! < row(siege, 'Vertx (JDK 8 SE)', undefined, '/json').figures.memoryMb!, 'siege: Node uses less memory');
  });

  test('a broken file names each problem with its line', () => {
    const text = ['study: ab-fixed-count', 'tool: ab', 'where: here', 'results:', '  - label: A', '    template: "not a ref"', '    step: s', '    figures: {requests: -1, bogus: 3}'].join('\n');
    const problems = parsePublishedResults(text);
    assert.equal(typeof problems, 'string');
    assert.match(problems as string, /results\.0\.template: must be "template:variant" \(line 6\)/);
    assert.match(problems as string, /results\.0\.figures\.requests: .* \(line 8\)/);
    assert.match(problems as string, /results\.0\.figures: Unrecognized key: "bogus"/);
    assert.match(String(parsePublishedResults('study: [')), /^not YAML: .* \(line \d+\)$/);
  });

  test('a row matches a configuration by template, variant and the knobs it names', () => {
    const entry: PublishedRow = { label: 'x', template: { template: 'spring-boot-3', variant: 'sync', knobs: { container: 'undertow' } }, step: 's', figures: {} };
    assert.ok(publishedRowMatches(entry, { templateId: 'spring-boot-3', variant: 'sync', knobs: { container: 'undertow', threads: 200 } }));
    assert.ok(!publishedRowMatches(entry, { templateId: 'spring-boot-3', variant: 'sync', knobs: { container: 'jetty' } }));
    assert.ok(!publishedRowMatches(entry, { templateId: 'spring-boot-3', variant: 'async', knobs: { container: 'undertow' } }));
    assert.ok(!publishedRowMatches({ ...entry, template: null }, { templateId: 'spring-boot-3', variant: 'sync', knobs: {} }));
  });

  test('Compare finds the sessions that ran a published row by their setups', () => {
    const entry: PublishedRow = { label: 'x', template: { template: 'spring-boot-3', variant: 'sync', knobs: { container: 'undertow' } }, step: 's', figures: {} };
    const sessions = [
      { setups: [{ template: 'spring-boot-3', variant: 'sync', knobs: 'container jetty, threads 200' }] },
      { setups: [{ template: 'spring-boot-3', variant: 'sync', knobs: 'container undertow, threads 200' }] },
      { setups: [{ template: 'spring-boot-3', variant: 'async', knobs: 'container undertow' }] },
      {},
    ];
    assert.deepEqual(sessionsRunning(entry, sessions), [1]);
    assert.deepEqual(sessionsRunning({ ...entry, template: 'spring-boot-3:sync' }, sessions), [0, 1]);
    assert.deepEqual(sessionsRunning({ ...entry, template: null }, sessions), []);
  });

  test('a row with an endpoint matches only the sessions that sent it: by the study request’s name, else by path', () => {
    const siege = shipped().get('siege-mixed.yaml')!;
    const study = studyOf('siege-mixed');
    const names = study.profile.requests?.map((request) => request.name) ?? [];
    for (const entry of siege.results.filter((candidate) => candidate.endpoint !== undefined)) {
      assert.ok(entry.request && names.includes(entry.request), `${entry.label} ${entry.endpoint}: names one of the study's requests (${names.join(', ')})`);
      assert.equal(study.profile.requests!.find((request) => request.name === entry.request)!.path, entry.endpoint, `${entry.label}: its request sends ${entry.endpoint}`);
    }
    const restify = [{ template: 'node-restify', variant: 'async', knobs: 'database on' }];
    const sessions = [
      { setups: restify, request: { name: 'json', path: '/json' } },
      { setups: restify, request: { name: 'fib', path: '/fib?n=30' } },
      { setups: restify, request: { name: null, path: '/fib?n=30' } },
      { setups: restify },
    ];
    assert.deepEqual(sessionsRunning(row(siege, 'Node.js', undefined, '/fib?n=30'), sessions), [1, 2, 3]);
    assert.deepEqual(sessionsRunning(row(siege, 'Node.js', undefined, '/json'), sessions), [0, 3]);
  });
});
