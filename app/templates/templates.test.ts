import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import {
  parseManifest,
  postgresUrl,
  renderStartArgv,
  requirementsFor,
  databaseKindOf,
  resolveDeploySettings,
  serverEnvironment,
  sharedFolders,
  toCommandLine,
  wantsDatabase,
  type Manifest,
} from './templates.ts';

const TEMPLATES_DIR = join(import.meta.dirname, '..', '..', 'server-templates');

function manifest(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    schema: 1,
    id: 'demo',
    name: 'Demo',
    description: 'A demo template',
    requires: [{ runtime: 'node', minVersion: 18 }],
    endpoints: ['hello', 'file', 'health'],
    variants: [
      { id: 'async', name: 'async', description: 'timers' },
      { id: 'sync', name: 'sync', description: 'blocking' },
    ],
    defaultVariant: 'async',
    knobs: [
      { id: 'workers', name: 'Workers', description: 'processes', type: 'integer', min: 1, max: 8, default: 1 },
      { id: 'cacheFile', name: 'Cache', description: 'cache the file', type: 'boolean', default: false },
      { id: 'mode', name: 'Mode', description: 'a choice', type: 'choice', values: ['a', 'b'], default: 'a' },
    ],
    files: ['server.mjs'],
    payload: 'payload.bin',
    start: ['{node}', '{dir}/server.mjs', '--port', '{port}', '--workers', '{knob.workers}', '--variant', '{variant}'],
    readiness: { path: '/health', timeoutSeconds: 10 },
    stop: { signal: 'TERM', graceSeconds: 5 },
    ...overrides,
  };
}

function parse(overrides: Record<string, unknown> = {}, folder = 'demo') {
  return parseManifest(JSON.stringify(manifest(overrides)), folder);
}

/** Asserts the manifest is refused, its message matching `error`. */
function assertRefused(overrides: Record<string, unknown>, error: RegExp, folder = 'demo'): void {
  const result = parse(overrides, folder);
  assert.equal(result.ok, false, `${JSON.stringify(overrides)} should be refused`);
  if (!result.ok) assert.match(result.error, error);
}

function valid(overrides: Record<string, unknown> = {}): Manifest {
  const result = parse(overrides);
  assert.ok(result.ok, result.ok ? '' : result.error);
  return result.manifest;
}

describe('template manifests', () => {
  test('every bundled template parses; the other folders are shared by templates', () => {
    const folders = readdirSync(TEMPLATES_DIR, { withFileTypes: true }).filter((entry) => entry.isDirectory());
    const templates = folders.filter((folder) => existsSync(join(TEMPLATES_DIR, folder.name, 'template.json')));
    assert.ok(templates.length >= 2);
    const shared = new Set<string>();
    for (const folder of templates) {
      const result = parseManifest(readFileSync(join(TEMPLATES_DIR, folder.name, 'template.json'), 'utf8'), folder.name);
      assert.ok(result.ok, `${folder.name}: ${result.ok ? '' : result.error}`);
      for (const name of sharedFolders(result.manifest)) shared.add(name);
    }
    // Every folder that is not a template is shared by one; a shared folder may also be a template
    // (spring-boot-3 compiles spring-boot's controllers), but it always exists.
    for (const folder of folders.filter((candidate) => !templates.includes(candidate))) assert.ok(shared.has(folder.name), `${folder.name} is neither a template nor shared`);
    for (const name of shared) assert.ok(folders.some((folder) => folder.name === name), `shared folder ${name} exists`);
    assert.ok(shared.has('jvm-common') && shared.has('node-common'));
  });

  test('a valid manifest gets its defaults', () => {
    const parsed = valid();
    assert.deepEqual(parsed.build, []);
    assert.deepEqual(parsed.logs, []);
  });

  test('broken manifests are explained, field by field', () => {
    const cases: Array<[Record<string, unknown> | string, RegExp]> = [
      ['{ "id": ', /not valid JSON/],
      [{ knobs: [{ id: 'workers', name: 'W', description: 'd', type: 'integer', min: 8, max: 1, default: 2 }] }, /knobs\.0\.min: min must not be above max/],
      [{ knobs: [{ id: 'workers', name: 'W', description: 'd', type: 'integer', min: 1, max: 8, default: 9 }] }, /knobs\.0\.default: must be between min and max/],
      [{ defaultVariant: 'nope' }, /defaultVariant: "nope" is not one of the variants \(async, sync\)/],
      [{ endpoints: ['hello'] }, /must include "health"/],
      [{ endpoints: ['health', 'teapot'] }, /endpoints\.1: must be one of hello, file/],
      [{ payload: null }, /payload: is required when the template serves "file"/],
      [{ start: ['{node}', '{bogus}'] }, /unknown placeholder \{bogus\}/],
      [{ start: ['{apache2}'] }, /unknown placeholder \{apache2\}/],
      [{ files: ['../etc/passwd'] }, /files\.0: must be a relative path/],
      [{ files: ['/etc/passwd'] }, /files\.0: must be a relative path/],
      [{ requires: [{ runtime: 'python' }] }, /runtime must be one of node, apache2/],
      [{ stop: { signal: 'KILL', graceSeconds: 5 } }, /stop\.signal/],
      [{ extra: true }, /unknown field "extra"/],
      [{ variants: [{ id: 'a', name: 'a', description: 'a' }, { id: 'a', name: 'b', description: 'b' }], defaultVariant: 'a' }, /variant "a" is listed twice/],
    ];
    for (const [input, expected] of cases) {
      const result = typeof input === 'string' ? parseManifest(input, 'demo') : parse(input);
      assert.equal(result.ok, false, `${JSON.stringify(input)} should be refused`);
      if (!result.ok) assert.match(result.error, expected);
    }
  });

  test('the id must match the folder', () => {
    assertRefused({}, /id: "demo" must match its folder name "other"/, 'other');
  });
});

describe('deploy settings', () => {
  test('defaults fill what the user left out', () => {
    const result = resolveDeploySettings(valid(), {});
    assert.deepEqual(result, { ok: true, settings: { variant: 'async', knobs: { workers: 1, cacheFile: false, mode: 'a' }, port: 8080 } });
  });

  test('a knob out of bounds, a wrong type, an unknown knob, variant or port are each named', () => {
    const result = resolveDeploySettings(valid(), { variant: 'turbo', knobs: { workers: 100, cacheFile: 'yes', mode: 'c', colour: 1 }, port: 70000 });
    assert.equal(result.ok, false);
    if (result.ok) return;
    assert.deepEqual(result.errors, [
      `variant "turbo" is not one of Demo's variants (async, sync)`,
      'knob "workers" (Workers): must be between 1 and 8 (got 100)',
      'knob "cacheFile" (Cache): must be true or false (got "yes")',
      'knob "mode" (Mode): must be one of a, b (got "c")',
      'unknown knob "colour" (Demo has workers, cacheFile, mode)',
      'port: must be between 1 and 65535 (got 70000)',
    ]);
    const fraction = resolveDeploySettings(valid(), { knobs: { workers: 1.5 } });
    assert.equal(fraction.ok, false);
    if (!fraction.ok) assert.match(fraction.errors[0]!, /must be a whole number \(got 1\.5\)/);
  });
});

describe('start command', () => {
  test('placeholders are replaced and every argument quoted', () => {
    const parsed = valid();
    const settings = { variant: 'sync', knobs: { workers: 4, cacheFile: true, mode: 'a' }, port: 9000 };
    const argv = renderStartArgv(parsed, { settings, dir: "/home/o'brien/.benchlab/templates/demo", run: '/run', runtimes: { node: '/usr/bin/node' } });
    assert.deepEqual(argv, ['/usr/bin/node', "/home/o'brien/.benchlab/templates/demo/server.mjs", '--port', '9000', '--workers', '4', '--variant', 'sync']);
    assert.equal(
      toCommandLine(argv),
      `'/usr/bin/node' '/home/o'\\''brien/.benchlab/templates/demo/server.mjs' '--port' '9000' '--workers' '4' '--variant' 'sync'`,
    );
  });

  test('a runtime placeholder without a value is an error, not an empty argument', () => {
    const parsed = valid();
    assert.throws(
      () => renderStartArgv(parsed, { settings: { variant: 'async', knobs: { workers: 1 }, port: 1 }, dir: '/d', run: '/r', runtimes: {} }),
      /placeholder \{node\} has no value/,
    );
  });
});

describe('the database a template declares', () => {
  const withDatabase = {
    endpoints: ['hello', 'health', 'db', 'fortunes'],
    knobs: [{ id: 'database', name: 'Database', description: 'a private PostgreSQL', type: 'boolean', default: false }],
    database: { kind: 'postgresql', minVersion: 13, knob: 'database' },
    payload: null,
    start: ['{node}', '{dir}/server.mjs', '--port', '{port}', '--db', '{db.url}'],
  };

  test('a manifest without one has none; one with its boolean knob parses', () => {
    assert.equal(valid().database, null);
    assert.deepEqual(valid(withDatabase).database, { kind: 'postgresql', minVersion: 13, knob: 'database' });
  });

  test('database endpoints need it, and it needs a boolean knob of the manifest', () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ ...withDatabase, database: null, start: ['{node}'] }, /database: is required when the template serves "db", "fortunes"/],
      [{ ...withDatabase, database: { kind: 'postgresql', minVersion: 13, knob: 'db' } }, /database\.knob: "db" is not one of the knobs/],
      [{ ...withDatabase, knobs: [{ id: 'database', name: 'D', description: 'd', type: 'integer', min: 0, max: 1, default: 0 }] }, /"database" must be a boolean knob/],
      [{ ...withDatabase, database: { kind: 'mysql', minVersion: 8, knob: 'database' } }, /database\.kind: must be "postgresql"/],
      [{ ...manifest(), start: ['{node}', '{db.url}'] }, /unknown placeholder \{db\.url\}/],
    ];
    for (const [overrides, error] of cases) assertRefused(overrides, error);
  });

  test('the knob turns it on: {db.url} and BENCHLAB_DB_URL carry the URL, or "none"', () => {
    const parsed = valid(withDatabase);
    const off = { variant: 'async', knobs: { database: false }, port: 9000 };
    const on = { ...off, knobs: { database: true } };
    assert.equal(wantsDatabase(parsed, off), false);
    assert.equal(wantsDatabase(parsed, on), true);
    assert.equal(wantsDatabase(valid(), { knobs: { cacheFile: true } }), false);
    const url = postgresUrl({ user: 'bench', password: 'p@ss', port: 54321, name: 'hello' });
    assert.equal(url, 'postgresql://bench:p%40ss@127.0.0.1:54321/hello');
    const values = { dir: '/d', run: '/r', runtimes: { node: '/usr/bin/node' } };
    assert.equal(renderStartArgv(parsed, { ...values, settings: on, databaseUrl: url }).at(-1), url);
    assert.equal(renderStartArgv(parsed, { ...values, settings: off, databaseUrl: null }).at(-1), 'none');
    assert.deepEqual(serverEnvironment(parsed, url), { BENCHLAB_DB_URL: url });
    assert.deepEqual(serverEnvironment(parsed, null), { BENCHLAB_DB_URL: 'none' });
    assert.deepEqual(serverEnvironment(valid(), url), {}, 'a template without a database gets no variable');
    assert.equal(toCommandLine(['/usr/bin/node', 's.mjs'], { BENCHLAB_DB_URL: "it's" }), `'env' 'BENCHLAB_DB_URL=it'\\''s' '/usr/bin/node' 's.mjs'`);
  });
});

describe('a database knob that offers MongoDB too', () => {
  const withMongo = {
    endpoints: ['hello', 'health', 'docs'],
    knobs: [{ id: 'database', name: 'Database', description: 'none, PostgreSQL or MongoDB', type: 'choice', values: ['none', 'postgres', 'mongo'], default: 'none' }],
    database: { kind: 'postgresql', minVersion: 13, knob: 'database', mongodb: true },
    payload: null,
    start: ['{node}', '{dir}/server.mjs', '--port', '{port}'],
  };

  test('with mongodb the knob must be the choice none, postgres, mongo (default none)', () => {
    assert.equal(valid(withMongo).database?.mongodb, true);
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ ...withMongo, knobs: [{ id: 'database', name: 'D', description: 'd', type: 'boolean', default: false }] }, /"database" must be a choice of none, postgres, mongo/],
      [{ ...withMongo, knobs: [{ ...withMongo.knobs[0], values: ['none', 'mongo'] }] }, /must be a choice of none, postgres, mongo/],
      [{ ...withMongo, knobs: [{ ...withMongo.knobs[0], default: 'mongo' }] }, /with the default none/],
      [{ ...withMongo, database: { kind: 'postgresql', minVersion: 13, knob: 'database' } }, /"database" must be a boolean knob/],
    ];
    for (const [overrides, error] of cases) assertRefused(overrides, error);
  });

  test('the choice names the database; the booleans older plan files wrote still mean PostgreSQL and none', () => {
    const parsed = valid(withMongo);
    const kindFor = (database: string | boolean | undefined) => {
      const resolved = resolveDeploySettings(parsed, { knobs: database === undefined ? {} : { database } });
      assert.ok(resolved.ok, resolved.ok ? '' : resolved.errors.join('; '));
      return [resolved.settings.knobs.database, databaseKindOf(parsed, resolved.settings)];
    };
    assert.deepEqual(kindFor(undefined), ['none', null]);
    assert.deepEqual(kindFor('postgres'), ['postgres', 'postgresql']);
    assert.deepEqual(kindFor('mongo'), ['mongo', 'mongodb']);
    assert.deepEqual(kindFor(true), ['postgres', 'postgresql']);
    assert.deepEqual(kindFor(false), ['none', null]);
    assert.equal(resolveDeploySettings(parsed, { knobs: { database: 'mysql' } }).ok, false);
    // A PostgreSQL-only template never starts MongoDB, whatever its knob says.
    assert.equal(databaseKindOf({ database: { kind: 'postgresql', minVersion: 13, knob: 'database' } }, { knobs: { database: 'mongo' } }), null);
  });
});

describe('variant requirements', () => {
  const jvm = {
    requires: [{ runtime: 'java', minVersion: 17 }],
    variants: [
      { id: 'sync', name: 'sync', description: 'threads' },
      { id: 'virtual', name: 'virtual', description: 'virtual threads', requires: [{ runtime: 'java', minVersion: 21 }] },
    ],
    defaultVariant: 'sync',
    start: ['{java}', '-jar', '{dir}/target/demo.jar', '--port', '{port}'],
  };

  test('a variant raises the Java it needs; the others keep the template’s', () => {
    const parsed = valid(jvm);
    assert.deepEqual(requirementsFor(parsed, 'sync'), [{ runtime: 'java', minVersion: 17 }]);
    assert.deepEqual(requirementsFor(parsed, 'virtual'), [{ runtime: 'java', minVersion: 21 }]);
    const lower = valid({ ...jvm, variants: [{ id: 'sync', name: 'sync', description: 'd', requires: [{ runtime: 'java', minVersion: 11 }] }] });
    assert.deepEqual(requirementsFor(lower, 'sync'), [{ runtime: 'java', minVersion: 17 }], 'a lower minimum does not loosen the template');
  });

  test("a runtime's placeholder is known when only a variant requires it", () => {
    const onlyVariant = valid({ ...jvm, requires: [] });
    assert.deepEqual(requirementsFor(onlyVariant, 'sync'), []);
    assert.deepEqual(requirementsFor(onlyVariant, 'virtual'), [{ runtime: 'java', minVersion: 21 }]);
    const unknown = parse({ ...jvm, requires: [], variants: [{ id: 'sync', name: 'sync', description: 'd' }] });
    assert.equal(unknown.ok, false);
    if (!unknown.ok) assert.match(unknown.error, /unknown placeholder \{java\}/);
  });

  test('Node is named by a minimum or by an exact release, never both, and the exact one holds over a minimum', () => {
    const node = { ...jvm, requires: [{ runtime: 'node', minVersion: 18 }], start: ['{node}', '{dir}/server.js'] };
    const exact = valid({ ...node, variants: [{ id: 'sync', name: 'sync', description: 'd', requires: [{ runtime: 'node', version: '0.8.28' }] }] });
    assert.deepEqual(requirementsFor(exact, 'sync'), [{ runtime: 'node', version: '0.8.28' }]);
    for (const [requirement, error] of [
      [{ runtime: 'node', minVersion: 18, version: '0.8.28' }, /requires\.0: names either minVersion or version, not both/],
      [{ runtime: 'node' }, /requires\.0: names either minVersion or version, not both/],
      [{ runtime: 'node', version: '0.8' }, /requires\.0\.version: must be a release such as 0\.8\.28/],
    ] as const) {
      const result = parse({ ...node, requires: [requirement] });
      assert.equal(result.ok, false, JSON.stringify(requirement));
      if (!result.ok) assert.match(result.error, error);
    }
  });

  test('Java below 8 and build inputs outside the folder are refused', () => {
    const old = parse({ ...jvm, requires: [{ runtime: 'java', minVersion: 7 }] });
    assert.equal(old.ok, false);
    for (const input of ['../../src', '../shared/src', '/etc', 'src/../..']) {
      const outside = parse({ ...jvm, build: [{ name: 'mvn', command: ['mvn', 'package'], artifacts: ['target/demo.jar'], inputs: [input] }] });
      assert.equal(outside.ok, false, input);
      if (!outside.ok) assert.match(outside.error, /build\.0\.inputs\.0: must be a relative path/);
    }
  });

  test('a build may read a whole folder beside the template\'s own, shared by templates', () => {
    const step = { name: 'mvn', command: ['mvn', 'package'], artifacts: ['target/demo.jar'] };
    const sharing = valid({ ...jvm, build: [{ ...step, inputs: ['pom.xml', '../jvm-common'] }, { ...step, inputs: ['src', '../jvm-common', '../more'] }] });
    assert.deepEqual(sharedFolders(sharing), ['jvm-common', 'more']);
    assert.deepEqual(sharedFolders(valid(jvm)), []);
    const own = parse({ ...jvm, build: [{ ...step, inputs: ['../demo'] }] });
    assert.equal(own.ok, false);
    if (!own.ok) assert.match(own.error, /build: an input "\.\.\/demo" names the template's own folder/);
  });
});

describe('the components a template names', () => {
  const bundled = { build: [{ name: 'bundle', command: ['node', 'build.mjs'], artifacts: ['dist/server.mjs', 'dist/components.json'] }] };

  test('none by default; a build artifact when named', () => {
    assert.equal(valid().components, null);
    assert.equal(valid({ ...bundled, components: 'dist/components.json' }).components, 'dist/components.json');
  });

  test('a components file no build step makes is refused', () => {
    for (const overrides of [{ components: 'dist/components.json' }, { ...bundled, components: 'dist/versions.json' }]) {
      assertRefused(overrides, /components: "dist\/(components|versions)\.json" is not an artifact of a build step/);
    }
  });
});
