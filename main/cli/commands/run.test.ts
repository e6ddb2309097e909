// `benchlab run` on bad input, as a user runs it (`node main/cli/benchlab.ts run …`): every problem
// of a plan file with its line, a missing file, missing hosts, bad thresholds and options, a
// regression threshold without a baseline, a baseline that matches nothing and a report folder
// that does not exist — each exit 2, before anything connects, and nothing stored.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { scratchCli } from '../../../tests/support/cli-process.ts';

const { dir, run } = scratchCli('benchlab-cli-run-');

const cli = (dataDir: string, ...args: string[]) => run(['run', '--data-dir', dataDir, ...args], { cwd: dir });

/** Runs `benchlab run` on bad input: exit 2 with nothing on stdout; returns what it said on stderr. */
function refused(dataDir: string, ...args: string[]): string {
  const result = cli(dataDir, ...args);
  assert.equal(result.code, 2, result.stderr);
  assert.equal(result.stdout, '');
  return result.stderr;
}

function planFile(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

const GOOD_PLAN = `version: 1
name: args
templates: [node:async]
profile:
  request: { path: /hello }
  load: { model: closed, connections: 2, durationS: 2 }
thresholds:
  - p99 < 20ms
`;

describe('benchlab run: bad input is exit 2, before anything connects', () => {
  test('a broken plan file: every problem with its line and column, nothing opened', () => {
    const file = planFile(
      'broken.yaml',
      `version: 1
name: broken
templates:
  - node:async
  - template: node
    knobs: { workers: 2 }
profile:
  request: { path: /hello }
  load: { model: closed, connections: 0, durationS: 2 }
thresholds: [p95 < 3ms]
colour: blue
`,
    );
    const dataDir = join(dir, 'data-broken');
    assert.equal(
      refused(dataDir, file),
      [
        `${file}:5:5 templates[1].variant: is required`,
        `${file}:9:39 profile.load.connections: must be at least 1`,
        `${file}:10:14 thresholds[0]: "p95" is not a metric: use one of p50, p75, p90, p99, p999, max, mean, rps, errors, not_sent, timeouts`,
        `${file}:11:1 colour: is not a field of a plan file (see docs/plan-files.md)`,
        '',
      ].join('\n'),
    );
    assert.equal(existsSync(dataDir), false, 'the data dir is not even opened');
  });

  test('knobs, variants, studies and host logins are checked against what is installed: every problem with its line, before anything connects', () => {
    const file = planFile(
      'knobs.yaml',
      `version: 1
name: knobs
study: no-such-study
hosts:
  client: root@bad_host!
  server: bench@10.0.0.2:99999
templates:
  - template: node
    variant: async
    knobs: { workers: 1000000, colour: red }
  - template: node
    variant: turbo
    knobs: { workers: -5 }
  - template: spring-boot
    variant: sync
    knobs: { container: "$(touch pwned)" }
profile:
  request: { path: /hello }
  load: { model: closed, connections: 0, durationS: 2 }
`,
    );
    const dataDir = join(dir, 'data-knobs');
    const stderr = refused(dataDir, file);
    const lines = stderr.trimEnd().split('\n');
    assert.deepEqual(
      lines.map((line) => line.slice(file.length).split(': ')[0]),
      [
        ':3:8 study',
        ':5:11 hosts.client',
        ':6:11 hosts.server',
        ':10:23 templates[0].knobs.workers',
        ':10:32 templates[0].knobs.colour',
        ':12:14 templates[1].variant',
        ':13:23 templates[1].knobs.workers',
        ':16:25 templates[2].knobs.container',
        ':19:39 profile.load.connections',
      ],
      stderr,
    );
    assert.match(lines[1]!, /the address "bad_host!" must be a hostname/);
    assert.match(lines[2]!, /the port "99999" must be between 1 and 65535/);
    assert.match(lines[3]!, /must be between 1 and 64 \(got 1000000\)/);
    assert.match(lines[6]!, /must be between 1 and 64 \(got -5\)/);
    assert.match(lines[7]!, /must be one of tomcat, jetty \(got "\$\(touch pwned\)"\)/);
    assert.equal(existsSync(dataDir), false, 'nothing was stored, so nothing was connected');
  });

  test('a host the command line names badly is refused with its option; one the file names that is not there, with its role and line', () => {
    const file = planFile('hosts-named.yaml', `${GOOD_PLAN}hosts: { client: local, server: nowhere }\n`);
    const option = cli(join(dir, 'data-named'), file, '--server', 'root@bad_host!');
    assert.equal(option.code, 2);
    assert.match(option.stderr, /^benchlab run: --server root@bad_host!: the address "bad_host!" must be a hostname/);
    const missing = cli(join(dir, 'data-named'), file);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, new RegExp(`^benchlab run: ${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:9:33 hosts\\.server \\(the server\\): no host "nowhere"`));
  });

  test('a file that is not there, or a folder', () => {
    const missing = cli(join(dir, 'data-missing'), 'nope.yaml');
    assert.equal(missing.code, 2);
    assert.equal(missing.stderr, 'benchlab run: cannot read nope.yaml: no such file\nsee: benchlab run --help\n');
    assert.match(cli(join(dir, 'data-missing'), dir).stderr, /cannot read .*: it is a folder/);
    assert.match(cli(join(dir, 'data-missing')).stderr, /^benchlab run: missing the plan file: benchlab run PLAN\.yaml\n/);
    assert.match(cli(join(dir, 'data-missing'), 'a.yaml', 'b.yaml').stderr, /unexpected argument "b\.yaml": one plan file at a time/);
  });

  test('a JSON plan is held to JSON', () => {
    const file = planFile('plan.json', '{ "version": 1, "name": args }');
    assert.match(refused(join(dir, 'data-json'), file), new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:1:\\d+ YAML: `));
  });

  test('hosts are required, from the file or the command line', () => {
    const file = planFile('no-hosts.yaml', GOOD_PLAN);
    assert.match(refused(join(dir, 'data-hosts'), file), /^benchlab run: no client host: add hosts\.client to the plan file or pass --client HOST\n/);
    assert.match(cli(join(dir, 'data-hosts'), file, '--client', 'a@127.0.0.1').stderr, /no server host: add hosts\.server to the plan file or pass --server HOST/);
    // Several clients: a host named twice, or a weight out of range, is refused before anything connects.
    assert.match(refused(join(dir, 'data-hosts'), file, '--client', 'a@127.0.0.1', '--client', 'a@127.0.0.1:22:2', '--server', 'a@127.0.0.1'), /^benchlab run: a@127\.0\.0\.1:22 is named twice as a load client: name each client host once\n/);
    assert.match(cli(join(dir, 'data-hosts'), file, '--client', 'x@127.0.0.1', '--client', 'x@127.0.0.1', '--server', 'x@127.0.0.1').stderr, /^benchlab run: --client x@127\.0\.0\.1 is given twice: name each client host once\n/);
    assert.match(refused(join(dir, 'data-hosts'), file, '--client', 'a@127.0.0.1', '--client', 'b@127.0.0.1:22:0', '--server', 'a@127.0.0.1'), /--client b@127\.0\.0\.1:22:0: a weight must be above 0 and at most 1000/);
  });

  test('thresholds and options from the command line are checked like the file', () => {
    const file = planFile('options.yaml', GOOD_PLAN);
    const dataDir = join(dir, 'data-options');
    assert.match(refused(dataDir, file, '--threshold', 'rps > 10', '--threshold', 'p99 < 3kb', '--threshold', 'nonsense'), /"p99 < 3kb": p99 is a time: write it in us, ms or s; "nonsense" is not a threshold/);
    assert.match(refused(dataDir, file, '--repeats', '21'), /--repeats must be a whole number from 1 to 20, got "21"/);
    assert.match(refused(dataDir, file, '--engine', 'turbo'), /--engine must be one of auto, native, node/);
    assert.match(refused(dataDir, file, '--threshold', 'p99 regression < 10%'), /a regression threshold needs a baseline: pass --baseline SESSION\|TAG/);
    assert.match(refused(dataDir, file, '--junit', join(dir, 'no-such-folder', 'results.xml')), /--junit .*results\.xml: the folder .*no-such-folder does not exist/);
    assert.equal(existsSync(dataDir), false);
  });

  test('a baseline that names no session is refused before any host is touched', () => {
    const file = planFile('baseline.yaml', `${GOOD_PLAN}hosts: { client: nobody@127.0.0.1, server: nobody@127.0.0.1 }\n`);
    const dataDir = join(dir, 'data-baseline');
    assert.match(refused(dataDir, file, '--baseline', 'no-such-tag', '--threshold', 'p99 regression < 10%'), /--baseline: "no-such-tag" is neither a session id nor a tag of any session/);
    const listed = spawnSync(process.execPath, [join(import.meta.dirname, '..', 'benchlab.ts'), 'hosts', 'list', '--json', '--data-dir', dataDir], { encoding: 'utf8', env: { ...process.env, HOME: dir } });
    assert.deepEqual(JSON.parse(listed.stdout), [], 'no host was added for the refs');
    assert.ok(readdirSync(dataDir).length > 0);
  });
});
