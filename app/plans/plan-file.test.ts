// Tests of plan files: a full file and its normalised plan, the template short form, JSON and YAML
// giving one plan, every problem of a bad file at once with its exact line and column (schema,
// unknown keys, YAML syntax), a newer version, hostile input (size, alias bombs, prototype keys,
// deep nesting), the serialiser's round trip, the documented examples, and every shipped study.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { PlanFileCatalogs } from './plan-file-catalog.ts';
import { describeProblems, MAX_PLAN_FILE_BYTES, parsePlanFile, planFileClients, type PlanFile, type PlanFileProblem } from './plan-file.ts';
import { formatPlanFile } from './plan-file-format.ts';

const STUDIES_DIR = join(import.meta.dirname, '..', '..', 'resources', 'studies');

const FULL = `# plan.yaml
version: 1
name: Node async vs sync
tags: [nightly, node]
hosts:
  client: lab-client
  server: root@10.77.0.2:22
presets:
  client: load-client
  server: null
revertPresets: false
templates:
  - template: node
    variant: async
    knobs: { workers: 2 }
    port: 8080
  - node:sync
profile:
  request: { method: GET, path: /hello, timeoutMs: 5000 }
  load: { model: closed, connections: 10, durationS: 10 }
  warmupS: 2
repeats: 3
thresholds:
  - p99 < 20ms
  - errors < 0.1%
`;

const FULL_PLAN: PlanFile = {
  version: 1,
  name: 'Node async vs sync',
  tags: ['nightly', 'node'],
  hosts: { client: 'lab-client', server: 'root@10.77.0.2:22' },
  presets: { client: 'load-client', server: null },
  revertPresets: false,
  templates: [
    { template: 'node', variant: 'async', knobs: { workers: 2 }, port: 8080 },
    { template: 'node', variant: 'sync', knobs: {} },
  ],
  profile: {
    request: { method: 'GET', path: '/hello', headers: {}, timeoutMs: 5000 },
    load: { model: 'closed', connections: 10, pipelining: 1, durationS: 10 },
    sweep: [],
    warmupS: 2,
    pauseS: 0,
    bucketsMs: [800, 1200],
    countStepCapS: 600,
  },
  repeats: 3,
  thresholds: ['p99 < 20ms', 'errors < 0.1%'],
};

function plan(text: string, format?: 'yaml' | 'json'): PlanFile {
  const parsed = parsePlanFile(text, format);
  assert.ok(parsed.ok, parsed.ok ? '' : describeProblems('plan.yaml', parsed.problems));
  return parsed.plan;
}

function problems(text: string, format?: 'yaml' | 'json'): PlanFileProblem[] {
  const parsed = parsePlanFile(text, format);
  assert.equal(parsed.ok, false, 'expected the file to be refused');
  return parsed.ok ? [] : parsed.problems;
}

/** Problems as `line:column field: message`, the way a reader checks them against the file. */
function placed(text: string, format?: 'yaml' | 'json'): string[] {
  return problems(text, format).map((problem) => `${problem.line}:${problem.column} ${problem.field}: ${problem.message}`);
}

const MINIMAL = 'version: 1\nname: Minimal\ntemplates: [node:async]\nprofile:\n  request: { path: /hello }\n  load: { model: closed, connections: 1, durationS: 1 }\n';

describe('parsePlanFile: good files', () => {
  test('a full file gives the normalised plan: long-form templates, defaults filled, no target', () => {
    assert.deepEqual(plan(FULL), FULL_PLAN);
  });

  test('defaults: no tags, presets reverted, one run, no thresholds', () => {
    const minimal = plan(MINIMAL);
    assert.deepEqual(minimal.tags, []);
    assert.equal(minimal.revertPresets, true);
    assert.equal(minimal.repeats, 1);
    assert.deepEqual(minimal.thresholds, []);
    assert.equal(minimal.hosts, undefined);
    assert.equal(minimal.presets, undefined);
    assert.equal(minimal.study, undefined);
  });

  test('template:variant is short for the long form', () => {
    const short = plan(MINIMAL.replace('[node:async]', '[node:async, "tomcat:sync"]'));
    const long = plan(MINIMAL.replace('[node:async]', '[{ template: node, variant: async }, { template: tomcat, variant: sync, knobs: {} }]'));
    assert.deepEqual(short.templates, [
      { template: 'node', variant: 'async', knobs: {} },
      { template: 'tomcat', variant: 'sync', knobs: {} },
    ]);
    assert.deepEqual(short, long);
  });

  test('the same plan in JSON reads the same, as JSON or as YAML', () => {
    // The full plan's fields, with a short-form template and the profile's defaults left out, as a person writes them.
    const json = JSON.stringify({
      ...FULL_PLAN,
      templates: [FULL_PLAN.templates![0], 'node:sync'],
      profile: { request: { method: 'GET', path: '/hello', timeoutMs: 5000 }, load: { model: 'closed', connections: 10, durationS: 10 }, warmupS: 2 },
    }, null, '\t');
    assert.deepEqual(plan(json, 'json'), FULL_PLAN);
    assert.deepEqual(plan(json), FULL_PLAN);
  });

  test('JSON held to JSON: an unquoted word is a problem with its place', () => {
    assert.deepEqual(placed('{\n  "version": 1,\n  "name": Plan\n}', 'json'), ['3:11 YAML: Unresolved plain scalar "Plan"']);
  });

  test('the engine: absent (auto) unless written, one of auto, native, node', () => {
    assert.equal(plan(MINIMAL).engine, undefined);
    assert.equal(plan(`${MINIMAL}engine: native\n`).engine, 'native');
    assert.deepEqual(placed(`${MINIMAL}engine: turbo\n`), ['7:9 engine: must be one of auto, native, node']);
  });

  test('a study id stands in for the templates and the profile', () => {
    const fromStudy = plan('version: 1\nname: From a study\nstudy: wrk-connections\nhosts: { client: a, server: b }\n');
    assert.equal(fromStudy.study, 'wrk-connections');
    assert.equal(fromStudy.studyInfo, undefined);
    assert.equal(fromStudy.templates, undefined);
    assert.equal(fromStudy.profile, undefined);
  });

  test("a study's own block gives its id, name and seed", () => {
    const study = plan(`${MINIMAL}study:\n  id: demo\n  name: Demo study\n  seed: what was done\n`);
    assert.equal(study.study, 'demo');
    assert.deepEqual(study.studyInfo, { name: 'Demo study', seed: 'what was done' });
  });

  test('a target in the profile is dropped: each deployment gives the address', () => {
    const withTarget = plan(MINIMAL.replace('  request:', '  target: http://10.0.0.9:9000\n  request:'));
    assert.equal(withTarget.profile && 'target' in withTarget.profile, false);
  });

  test('a few aliases are fine', () => {
    const aliased = plan(`${MINIMAL.replace('templates: [node:async]', 'templates:\n  - { template: node, variant: async, knobs: &k { workers: 2 } }\n  - { template: node, variant: sync, knobs: *k }')}`);
    assert.deepEqual(aliased.templates?.[1]?.knobs, { workers: 2 });
  });
});

describe('plan files: several load clients', () => {
  const withHosts = (hosts: string) => `${MINIMAL}hosts:\n${hosts}`;

  test('clients by name, or with a weight; one client stays `client`', () => {
    const several = plan(withHosts('  clients: [lab-client, { host: lab-client2, weight: 2 }]\n  server: lab-server\n'));
    assert.deepEqual(several.hosts, { clients: [{ host: 'lab-client' }, { host: 'lab-client2', weight: 2 }], server: 'lab-server' });
    assert.deepEqual(planFileClients(several.hosts), [{ host: 'lab-client' }, { host: 'lab-client2', weight: 2 }]);
    assert.deepEqual(planFileClients(plan(withHosts('  client: lab-client\n')).hosts), [{ host: 'lab-client' }]);
    assert.deepEqual(planFileClients(plan(MINIMAL).hosts), []);
  });

  test('client and clients together, a repeated host, a bad weight, an empty list: each with its line', () => {
    assert.deepEqual(placed(withHosts('  client: a\n  clients: [b, c]\n')), ['9:12 hosts.clients: give either client or clients, not both']);
    assert.deepEqual(placed(withHosts('  clients:\n    - a\n    - { host: b, weight: 0 }\n    - a\n')), [
      '10:26 hosts.clients[1].weight: must be above 0',
      '11:7 hosts.clients[2]: names a again: each client host once',
    ]);
    assert.deepEqual(placed(withHosts('  clients: []\n')), ['8:12 hosts.clients: needs at least one client']);
    assert.deepEqual(placed(withHosts('  clients: [{ name: a }]\n')), ['8:13 hosts.clients[0].host: is required', '8:15 hosts.clients[0].name: is not a field of a plan file (see docs/plan-files.md)']);
  });

  test('written back as names where no weight is given, and read back to the same plan', () => {
    const several = plan(withHosts('  clients: [a, { host: b, weight: 1.5 }]\n  server: s\n'));
    const text = formatPlanFile(several, 'yaml');
    assert.match(text, /\nhosts:\n {2}clients:\n {4}- a\n {4}- \{host: b, weight: 1\.5\}\n {2}server: s\n/);
    assert.deepEqual(plan(text), several);
    assert.deepEqual(plan(formatPlanFile(several, 'json'), 'json'), several);
  });
});

describe('parsePlanFile: every problem at once, each with its line', () => {
  test('schema problems, unknown keys and bad thresholds together, in file order', () => {
    const bad = [
      'version: 1', // 1
      'name: ""', // 2
      'hosts:', // 3
      '  client: lab-client', // 4
      '  sever: lab-server', // 5
      'templates:', // 6
      '  - template: node', // 7
      '  - Node:sync', // 8
      '  - node', // 9
      'profile:', // 10
      '  request: { path: hello }', // 11
      '  load: { model: closed, connections: 0, durationS: 10 }', // 12
      'repeats: 30', // 13
      'thresholds: [p99 <<< 3, rps > 10]', // 14
      'colour: blue', // 15
      '',
    ].join('\n');
    assert.deepEqual(placed(bad), [
      '2:7 name: is required',
      '5:3 hosts.sever: is not a field of a plan file (see docs/plan-files.md)',
      '7:5 templates[0].variant: is required',
      '8:5 templates[1].template: must be a template id',
      '9:5 templates[2].variant: is required',
      '11:20 profile.request.path: must start with "/" (for example /hello)',
      '12:39 profile.load.connections: must be at least 1',
      '13:10 repeats: must be at most 20',
      `14:14 thresholds[0]: "p99 <<< 3" is not a threshold: write a metric, a comparison and a bound, e.g. "p99 < 20ms", "rps > 40000", "errors < 0.1%", "not_sent == 0", "p99 regression < 10%"`,
      '15:1 colour: is not a field of a plan file (see docs/plan-files.md)',
    ]);
  });

  test('missing fields point at the map that lacks them', () => {
    assert.deepEqual(placed('name: No version\nrepeats: 2\n'), [
      '1:1 version: is required: start the file with "version: 1"',
      '1:1 templates: is required (or name a study that gives it)',
      '1:1 profile: is required (or name a study that gives it)',
    ]);
  });

  test('wrong types say what is expected', () => {
    assert.deepEqual(placed(`${MINIMAL}repeats: two\nrevertPresets: maybe\ntags: nightly\n`), [
      '7:10 repeats: must be a number',
      '8:16 revertPresets: must be true or false',
      '9:7 tags: must be a list',
    ]);
  });

  test('the same template, variant and knobs twice', () => {
    assert.deepEqual(placed(MINIMAL.replace('[node:async]', '\n  - node:async\n  - node:sync\n  - { template: node, variant: async }')), [
      '6:5 templates[2]: lists the same template, variant and knobs again',
    ]);
  });

  test('a YAML syntax error, with its line', () => {
    assert.deepEqual(placed('version: 1\nname: x\ntemplates: [node:async\nprofile: {}\n'), [
      '4:1 YAML: Flow sequence in block collection must be sufficiently indented and end with a ]',
    ]);
    assert.deepEqual(placed('version: 1\nname: a\nname: b\n'), ['3:1 YAML: Map keys must be unique']);
  });

  test('a file for a newer Benchlab says so, and only that', () => {
    assert.deepEqual(placed('version: 2\nname: From the future\nwormhole: true\n'), [
      '1:10 version: the file was written for a newer Benchlab (plan file version 2); this one reads version 1: update Benchlab',
    ]);
  });

  test('an empty file, or one that is not a map', () => {
    assert.deepEqual(placed(''), ['1:1 plan: the file is empty: a plan file starts with "version: 1"']);
    assert.deepEqual(placed('- version: 1\n'), ['1:1 plan: must be a map of fields (key: value)']);
  });

  test('describeProblems: one line per problem, file:line:column field: message', () => {
    const text = describeProblems('plan.yaml', problems('version: 1\nname: x\nrepeats: 0\ntemplates: [node]\nprofile: { request: { path: /hello }, load: { model: closed, connections: 1, durationS: 1 } }\n'));
    assert.equal(text, 'plan.yaml:3:10 repeats: must be at least 1\nplan.yaml:4:13 templates[0].variant: is required');
    assert.equal(describeProblems('big.yaml', [{ line: null, column: null, field: 'plan', message: 'is too big' }]), 'big.yaml plan: is too big');
  });
});

describe('parsePlanFile: hostile input', () => {
  test('a file over the size cap is refused before it is parsed', () => {
    const huge = `version: 1\nname: big\n# ${'x'.repeat(MAX_PLAN_FILE_BYTES)}\n`;
    assert.deepEqual(problems(huge), [{ line: null, column: null, field: 'plan', message: 'the file is 257 KiB; a plan file may be at most 256 KiB' }]);
  });

  test('an alias bomb is refused', () => {
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x]', 'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]', 'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]', 'd: [*c, *c, *c, *c, *c, *c, *c, *c, *c]', ''].join('\n');
    assert.deepEqual(placed(bomb), ['null:null plan: uses aliases (*name) more than 64 times: write the values out']);
  });

  test('keys that reach a prototype are refused wherever they are', () => {
    assert.deepEqual(placed(`${MINIMAL}__proto__: { polluted: true }\n`), ['7:1 __proto__: is not allowed as a key']);
    assert.deepEqual(placed(MINIMAL.replace('[node:async]', '[{ template: node, variant: async, knobs: { constructor: 1 } }]')), ['3:56 constructor: is not allowed as a key']);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  test('deep nesting gives a bounded list of problems, not a crash', () => {
    const found = problems(`version: 1\nname: deep\nprofile: ${'['.repeat(50_000)}\n`);
    assert.ok(found.length <= 21);
    assert.equal(found[0]!.field, 'YAML');
  });

  test('a long line in a field is reported by that field', () => {
    assert.deepEqual(placed(MINIMAL.replace('name: Minimal', `name: ${'n'.repeat(300)}`)), ['2:7 name: must be at most 200 characters']);
  });
});

describe('formatPlanFile', () => {
  test('YAML that reads back to the same plan, with a note above each field', () => {
    const text = formatPlanFile(FULL_PLAN, 'yaml');
    assert.deepEqual(plan(text), FULL_PLAN);
    assert.match(text, /^# Benchlab plan file \(docs\/plan-files\.md\)/);
    assert.match(text, /# A stored host name, user@host\[:port\], or an ~\/\.ssh\/config alias\nhosts:/);
    // Plain templates in the short form, the rest in full; thresholds one per line.
    assert.match(text, /\n {2}- node:sync\n/);
    assert.match(text, /\n {2}- template: node\n {4}variant: async\n/);
    assert.match(text, /thresholds:\n {2}- p99 < 20ms\n {2}- errors < 0\.1%\n/);
  });

  test('the engine is written when the plan names one, and reads back', () => {
    const forced = plan(`${MINIMAL}engine: node\n`);
    const text = formatPlanFile(forced, 'yaml');
    assert.match(text, /# The load engine: auto \(native where it can run, else Node\), native, or node\nengine: node\n/);
    assert.deepEqual(plan(text), forced);
    assert.doesNotMatch(formatPlanFile(plan(MINIMAL), 'yaml'), /engine:/);
  });

  test('JSON that reads back to the same plan', () => {
    const text = formatPlanFile(FULL_PLAN, 'json');
    assert.deepEqual(JSON.parse(text).templates[1], 'node:sync');
    assert.deepEqual(plan(text, 'json'), FULL_PLAN);
  });

  test('a study and its block round-trip too', () => {
    const withStudy = plan(`${MINIMAL}study: { id: demo, name: Demo, seed: "${'what was done, at length. '.repeat(8)}" }\n`);
    assert.deepEqual(plan(formatPlanFile(withStudy, 'yaml')), withStudy);
    const reference = plan('version: 1\nname: Ref\nstudy: wrk-connections\n');
    assert.deepEqual(plan(formatPlanFile(reference, 'yaml')), reference);
    assert.deepEqual(plan(formatPlanFile(reference, 'json'), 'json'), reference);
  });
});

describe('capacity steps', () => {
  const CAPACITY = 'version: 1\nname: Overload\ntemplates: [node:async]\nprofile:\n  request: { path: /file }\n  load: { model: open, durationS: 30 }\ncapacity:\n  reference: node:sync\n  times: [0.5, 1.3, 2, 3.5]\n';

  test('an open load without a rate takes its steps from the capacity block, and writes back without a rate', () => {
    const read = plan(CAPACITY);
    assert.deepEqual(read.capacity, { reference: { template: 'node', variant: 'sync', knobs: {} }, times: [0.5, 1.3, 2, 3.5], maxS: 60 });
    const written = formatPlanFile(read, 'yaml');
    assert.match(written, /capacity:\n {2}reference: node:sync\n {2}times: \[0\.5, 1\.3, 2, 3\.5\]/);
    assert.doesNotMatch(written, /rate:/);
    assert.deepEqual(plan(written), read);
    assert.deepEqual(plan(formatPlanFile(read, 'json'), 'json'), read);
  });

  test('without a capacity block an open load still needs its rate; a bad multiple or reference is said with its place', () => {
    assert.ok(problems(CAPACITY.replace(/capacity:[\s\S]*$/, '')).some((problem) => problem.field === 'profile.load.rate'));
    const bad = placed(CAPACITY.replace('times: [0.5, 1.3, 2, 3.5]', 'times: [0, 2]').replace('reference: node:sync', 'reference: { template: node, variant: sync, port: 9 }'));
    assert.deepEqual(bad, ['8:53 capacity.reference.port: the reference runs on its template\'s default port', '9:11 capacity.times[0]: must be greater than 0']);
  });

  test('its reference is checked against the installed templates like the templates are', () => {
    const templates = [{ id: 'node', name: 'Node', defaultVariant: 'async', variants: [{ id: 'async' }, { id: 'sync' }], knobs: [] }] as unknown as PlanFileCatalogs['templates'];
    const parsed = parsePlanFile(CAPACITY.replace('reference: node:sync', 'reference: nginx:static'), 'yaml', { templates, studies: [] });
    assert.equal(parsed.ok, false);
    assert.match(parsed.ok ? '' : describeProblems('plan.yaml', parsed.problems), /plan\.yaml:8:14 capacity\.reference\.template: there is no template "nginx"/);
  });
});

test('the examples in docs/plan-files.md are plan files', () => {
  const doc = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'plan-files.md'), 'utf8');
  const examples = [...doc.matchAll(/```yaml\n([\s\S]*?)```/g)].map((match) => match[1]!);
  assert.equal(examples.length, 4, "the doc's four examples: a plan, several requests, several clients, a study");
  for (const example of examples) plan(example);
});

test('every shipped study is a plan file with its study block and no hosts, and round-trips', () => {
  const files = readdirSync(STUDIES_DIR).filter((file) => file.endsWith('.yaml'));
  assert.equal(files.length, 6);
  for (const file of files) {
    const study = plan(readFileSync(join(STUDIES_DIR, file), 'utf8'));
    assert.equal(`${study.study}.yaml`, file);
    assert.ok(study.studyInfo?.name && study.studyInfo.seed, file);
    assert.equal(study.hosts, undefined, file);
    assert.ok(study.templates && study.profile, file);
    assert.deepEqual(plan(formatPlanFile(study, 'yaml')), study, file);
  }
});
