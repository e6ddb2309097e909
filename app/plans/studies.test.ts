// Tests of studies: parseStudy on good and broken plan files (errors name the field and line,
// profile errors their path), the profile without its target, and the shipped catalog in
// resources/studies — every file parses, names real templates, variants and presets, and holds
// the seeds' setups as docs/studies.md gives them.

import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { STUDY_TARGET_PLACEHOLDER } from './plan-file.ts';
import { DATABASE_ENDPOINTS, databaseKindOf, parseManifest, resolveDeploySettings, wantsDatabase, type Endpoint, type Manifest } from '../templates/templates.ts';
import { parseStudy, Study, type Study as StudyType } from './studies.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const STUDIES_DIR = join(ROOT, 'resources', 'studies');
const TEMPLATES_DIR = join(ROOT, 'server-templates');
const PRESETS_DIR = join(ROOT, 'resources', 'presets');

/** A study file as one line of JSON (JSON is YAML): every problem is on line 1. */
function studyInput(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    version: 1,
    name: 'Demo',
    study: { id: 'demo-study', name: 'Demo study', seed: 'what was done' },
    templates: ['node:async'],
    presets: { client: null, server: 'wrk-seed' },
    profile: {
      request: { path: '/hello' },
      load: { model: 'closed', connections: 10, durationS: 5 },
    },
    ...overrides,
  };
}

function parsed(overrides: Record<string, unknown> = {}): StudyType {
  const result = parseStudy(JSON.stringify(studyInput(overrides)));
  assert.notEqual(typeof result, 'string', `expected a study, got ${String(result)}`);
  return result as StudyType;
}

function refused(text: string): string {
  const result = parseStudy(text);
  assert.equal(typeof result, 'string', 'expected the study to be refused');
  return result as string;
}

describe('parseStudy', () => {
  test('a good study parses, its profile checked and given its defaults', () => {
    const study = parsed();
    assert.equal(study.id, 'demo-study');
    assert.deepEqual(study.presets, { client: null, server: 'wrk-seed' });
    assert.equal(study.profile.request.method, 'GET');
    assert.equal(study.profile.request.timeoutMs, 10_000);
    assert.deepEqual(study.profile.sweep, []);
    assert.deepEqual(study.profile.bucketsMs, [800, 1200]);
    assert.equal(study.profile.warmupS, 0);
  });

  test('the profile comes back without a target', () => {
    const study = parsed();
    assert.equal('target' in study.profile, false);
    assert.equal(JSON.stringify(study.profile).includes(STUDY_TARGET_PLACEHOLDER), false);
  });

  test('a target written in the file is dropped too', () => {
    const study = parsed({ profile: { ...(studyInput().profile as object), target: 'http://10.0.0.9:9000' } });
    assert.equal('target' in study.profile, false);
  });

  test('text that is not YAML, or nothing', () => {
    assert.match(refused('{ "id": '), /^YAML: .* \(line 1\)$/);
    assert.match(refused(''), /^plan: the file is empty/);
  });

  test('a missing field is named', () => {
    const { name: _name, ...withoutName } = studyInput();
    assert.equal(refused(JSON.stringify(withoutName)), 'name: is required (line 1)');
    const { profile: _profile, ...withoutProfile } = studyInput();
    assert.match(refused(JSON.stringify(withoutProfile)), /^profile: /);
  });

  test('a plan file is a study only with a study block and no hosts', () => {
    assert.match(refused(JSON.stringify(studyInput({ study: 'demo-study' }))), /^study: a study file has a study block/);
    assert.match(refused(JSON.stringify(studyInput({ hosts: { client: 'lab-client' } }))), /^hosts: a study names no hosts/);
  });

  test('every problem at once', () => {
    const problems = refused(JSON.stringify(studyInput({ name: '', repeats: 0 }))).split('; ');
    assert.deepEqual(problems, ['name: is required (line 1)', 'repeats: must be at least 1 (line 1)']);
  });

  test('a profile error is reported with its path', () => {
    assert.equal(
      refused(JSON.stringify(studyInput({ profile: { request: { path: '/hello' }, load: { model: 'closed', connections: 0, durationS: 5 } } }))),
      'profile.load.connections: must be at least 1 (line 1)',
    );
    assert.equal(
      refused(JSON.stringify(studyInput({ profile: { request: { path: 'hello' }, load: { model: 'closed', connections: 1, durationS: 5 } } }))),
      'profile.request.path: must start with "/" (for example /hello) (line 1)',
    );
    assert.equal(
      refused(
        JSON.stringify(studyInput({ profile: { request: { path: '/hello' }, load: { model: 'closed', connections: 10, durationS: 5 }, sweep: [10, 0.5] } })),
      ),
      'profile.sweep[1]: must be a whole number (line 1)',
    );
  });

  test('other bad fields', () => {
    assert.match(refused(JSON.stringify(studyInput({ study: { id: 'Bad Id', name: 'Demo study', seed: '' } }))), /^study\.id: /);
    assert.equal(refused(JSON.stringify(studyInput({ templates: [] }))), 'templates: needs at least one template (line 1)');
    assert.match(refused(JSON.stringify(studyInput({ presets: { client: 'Not A Preset', server: null } }))), /^presets\.client: /);
    assert.match(refused(JSON.stringify(studyInput({ extra: 1 }))), /^extra: is not a field/);
    assert.match(refused('[]'), /^plan: /);
  });
});

// The shipped catalog.

function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, 'utf8'));
}

const studyFiles = readdirSync(STUDIES_DIR).filter((file) => file.endsWith('.yaml')).sort();

const studies = new Map<string, StudyType>();
for (const file of studyFiles) {
  const result = parseStudy(readFileSync(join(STUDIES_DIR, file), 'utf8'));
  if (typeof result !== 'string') studies.set(file, result);
}

function study(id: string): StudyType {
  const found = [...studies.values()].find((candidate) => candidate.id === id);
  assert.ok(found, `no study ${id}`);
  return found;
}

/** A study's named requests as `name path`, in order. */
function namedPaths(entry: StudyType): string[] | undefined {
  return entry.profile.requests?.map((request) => `${request.name} ${request.path}`);
}

const templates = new Map<string, Manifest>(
  readdirSync(TEMPLATES_DIR, { withFileTypes: true })
    // A folder without a manifest is code the templates share (jvm-common), not a template.
    .filter((entry) => entry.isDirectory() && existsSync(join(TEMPLATES_DIR, entry.name, 'template.json')))
    .map((entry) => parseManifest(readFileSync(join(TEMPLATES_DIR, entry.name, 'template.json'), 'utf8'), entry.name))
    .flatMap((parsed) => (parsed.ok ? [[parsed.manifest.id, parsed.manifest] as const] : [])),
);

const presetIds = new Set(
  readdirSync(PRESETS_DIR)
    .filter((file) => file.endsWith('.json'))
    .map((file) => (readJson(join(PRESETS_DIR, file)) as { id: string }).id),
);

describe('the shipped studies', () => {
  test('six plan files, each parsing, each named after its id, ids unique', () => {
    assert.equal(studyFiles.length, 6);
    for (const file of studyFiles) {
      const result = parseStudy(readFileSync(join(STUDIES_DIR, file), 'utf8'));
      assert.notEqual(typeof result, 'string', `${file}: ${String(result)}`);
      assert.equal(`${(result as StudyType).id}.yaml`, file);
    }
    const ids = [...studies.values()].map((entry) => entry.id);
    assert.equal(new Set(ids).size, ids.length);
    assert.deepEqual(ids.sort(), [
      'ab-fixed-count',
      'gatling-file',
      'loadtest-sleep',
      'siege-mixed',
      'techempower',
      'wrk-connections',
    ]);
  });

  test('the files hold no target (the deployments give it)', () => {
    for (const file of studyFiles) {
      const raw = parseYaml(readFileSync(join(STUDIES_DIR, file), 'utf8')) as { profile: Record<string, unknown> };
      assert.equal('target' in raw.profile, false, file);
    }
  });

  test('every template, variant and knob exists, and serves each of the study paths (a database path with the database knob on)', () => {
    assert.ok(templates.size > 0);
    for (const entry of studies.values()) {
      const paths = entry.profile.requests?.map((request) => request.path) ?? [entry.profile.request.path];
      for (const [{ templateId, variant, knobs }, endpoint] of entry.templates.flatMap((target) => paths.map((path) => [target, path.slice(1).split(/[/?]/)[0]!] as const))) {
        const manifest = templates.get(templateId);
        assert.ok(manifest, `${entry.id}: no template ${templateId}`);
        const settings = resolveDeploySettings(manifest, { variant, knobs });
        assert.ok(settings.ok, `${entry.id}: ${templateId} ${settings.ok ? '' : settings.errors.join('; ')}`);
        assert.ok(manifest.endpoints.includes(endpoint as Endpoint), `${entry.id}: ${templateId} does not serve /${endpoint}`);
        if ((DATABASE_ENDPOINTS as readonly string[]).includes(endpoint)) {
          assert.ok(wantsDatabase(manifest, settings.settings), `${entry.id}: ${templateId} needs its database knob on for /${endpoint}`);
        }
      }
      const keys = entry.templates.map(({ templateId, variant, knobs }) => `${templateId}/${variant}/${JSON.stringify(knobs ?? {})}`);
      assert.equal(new Set(keys).size, keys.length, `${entry.id}: a template listed twice`);
    }
  });

  test('every preset exists', () => {
    assert.ok(presetIds.size > 0);
    for (const entry of studies.values()) {
      for (const presetId of [entry.presets.client, entry.presets.server]) {
        if (presetId !== null) assert.ok(presetIds.has(presetId), `${entry.id}: no preset ${presetId}`);
      }
    }
  });

  test('Gatling seed: its rates as multiples of a capacity measured first (the seed’s 1750–4000 req/s over its 1,150), 30 s each on /file, 800/1200 ms buckets', () => {
    const gatling = study('gatling-file');
    const { profile } = gatling;
    assert.equal(profile.load.model, 'open');
    assert.equal(profile.load.durationS, 30);
    assert.deepEqual(profile.sweep, [], 'the capacity’s times give the steps');
    assert.ok(gatling.capacity, 'the steps are multiples of a capacity');
    assert.deepEqual(gatling.capacity.reference, { templateId: 'node', variant: 'sync', knobs: {} });
    // The seed's rates over what its Node sync topped out at (1,150 answers/s): 1.3–3.5× overload.
    assert.deepEqual(gatling.capacity.times, [1750, 2000, 3000, 4000].map((rate) => Math.round((rate / 1150) * 100) / 100));
    assert.ok(gatling.templates.some((target) => target.templateId === 'node' && target.variant === 'sync'), 'the reference is one of the servers compared');
    assert.equal(profile.request.path, '/file');
    assert.deepEqual(profile.bucketsMs, [800, 1200]);
    // Arrivals get connections as they need them; a cap would turn the seed's failures into not-sent.
    assert.equal(profile.load.model === 'open' && profile.load.connections, undefined);
    assert.equal(profile.request.timeoutMs, 60_000);
  });

  test('wrk seed: warm-up, then 10/100/1000/10000 connections for 10 s each, the wrk-seed preset on both hosts', () => {
    const entry = study('wrk-connections');
    const { profile } = entry;
    assert.equal(profile.load.model, 'closed');
    assert.equal(profile.load.durationS, 10);
    assert.equal(profile.load.model === 'closed' && profile.load.requests, undefined);
    assert.deepEqual(profile.sweep, [10, 100, 1000, 10_000]);
    assert.ok(profile.warmupS > 0);
    assert.deepEqual(entry.presets, { client: 'wrk-seed', server: 'wrk-seed' });
  });

  test('ab seed: 10000 requests over 100 connections, closed model', () => {
    const { profile } = study('ab-fixed-count');
    assert.equal(profile.load.model, 'closed');
    assert.equal(profile.load.model === 'closed' && profile.load.connections, 100);
    assert.equal(profile.load.model === 'closed' && profile.load.requests, 10_000);
    assert.equal(profile.load.durationS, undefined);
    assert.deepEqual(profile.sweep, []);
    assert.ok(study('ab-fixed-count').templates.some((target) => target.templateId === 'apache-static'));
    // ab without -k: HTTP/1.0 without keep-alive, a new connection per request.
    assert.equal(profile.request.httpVersion, '1.0');
    assert.deepEqual(profile.request.headers, {});
  });

  test('loadtest seed: 700 req/s for 60 s on /sleep?ms=500, sync and async, connections opened as needed up to 1000', () => {
    const entry = study('loadtest-sleep');
    const { profile } = entry;
    assert.equal(profile.load.model, 'open');
    assert.equal(profile.load.model === 'open' && profile.load.rate, 700);
    assert.equal(profile.load.model === 'open' && profile.load.requests, undefined);
    // The seed's 15 connections carry only 15 / 0.5 s = 30 req/s of a 500 ms operation: sync and
    // async would both be capped there. 1000 carry more than async needs (700 × 0.5 s = 350) and
    // keep a storm of new connections from overflowing a busy server's accept queue.
    const connections = profile.load.model === 'open' ? profile.load.connections : undefined;
    assert.equal(connections, 1000);
    assert.ok(connections! > 700 * 0.5);
    assert.equal(profile.load.durationS, 60);
    assert.deepEqual(profile.sweep, []);
    assert.equal(profile.request.path, '/sleep?ms=500');
    // The request timeout must outlast the 500 ms operation.
    assert.ok(profile.request.timeoutMs > 500);
    const variants = entry.templates.map((target) => target.variant);
    assert.ok(variants.includes('sync') && variants.includes('async'));
  });

  test('siege seed: its four endpoints as named requests, restify and Vert.x (handlers in Java, Rhino and Nashorn) with the database for its /docs step', () => {
    const entry = study('siege-mixed');
    assert.deepEqual(namedPaths(entry), ['db /docs', 'json /json', 'concat /concat?n=10000', 'fib /fib?n=30']);
    // The profile's own request is the first named one (what a reader of one request sees).
    assert.equal(entry.profile.request.path, '/docs');
    assert.deepEqual(entry.templates.find((target) => target.templateId === 'node-restify')?.knobs, { database: 'mongo' });
    assert.deepEqual(
      entry.templates.filter((target) => target.templateId === 'vertx').map((target) => target.knobs),
      ['java', 'rhino', 'nashorn'].map((language) => ({ database: 'mongo', language })),
    );
    for (const { templateId, variant, knobs } of entry.templates.filter((target) => templates.get(target.templateId)?.database?.mongodb)) {
      const settings = resolveDeploySettings(templates.get(templateId)!, { variant, knobs });
      assert.ok(settings.ok && databaseKindOf(templates.get(templateId)!, settings.settings) === 'mongodb', templateId);
    }
    assert.match(entry.seed, /\/docs/);
    // siege's default configuration closes the connection after each request; the seed's ran with it.
    for (const request of entry.profile.requests ?? []) assert.deepEqual(request.headers, { Connection: 'close' }, request.name);
  });

  test('wrk seed: Spring Boot on each of the three containers the seed ran it on', () => {
    const containers = study('wrk-connections').templates.filter((target) => target.templateId === 'spring-boot-3').map((target) => target.knobs?.container);
    assert.deepEqual(containers, ['tomcat', 'jetty', 'undertow']);
  });

  test('TechEmpower-style database: one study whose requests are db, queries, updates and fortunes, across every template that serves them', () => {
    const entry = study('techempower');
    assert.deepEqual(namedPaths(entry), ['db /db', 'queries /queries?n=20', 'updates /updates?n=20', 'fortunes /fortunes']);
    const serving = [...templates.values()].filter((manifest) => manifest.database !== null).map((manifest) => manifest.id);
    assert.deepEqual([...new Set(entry.templates.map((target) => target.templateId))].sort(), [...serving].sort(), 'techempower runs every template with a database');
  });

  test('a parsed study is what the Study schema (the contract) keeps', () => {
    for (const file of studyFiles) {
      assert.deepEqual(Study.parse(studies.get(file)), studies.get(file));
    }
  });
});
