// The Node check that runs before any TypeScript source (scripts/require-node.js): which versions
// pass, the one line an older one gets, and `npm start`'s first step on a really older Node when the
// machine has one (Debian's /usr/bin/node), which must print that line and no stack trace.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { MINIMUM_NODE, nodeVersionProblem } from '../scripts/require-node.js';

const ROOT = resolve(import.meta.dirname, '..');
const CHECK = join(ROOT, 'scripts', 'require-node.js');

test('22.18 and newer pass; older ones get one line naming the Node needed and the one found', () => {
  for (const version of ['22.18.0', '22.20.1', '23.0.0', '24.11.1', 'v25.1.0']) assert.equal(nodeVersionProblem(version), null, version);
  for (const version of ['22.17.1', '22.6.0', '20.20.2', '18.19.0', 'v16.20.2']) {
    const problem = nodeVersionProblem(version);
    assert.ok(problem, version);
    assert.ok(!problem.includes('\n'), 'one line');
    assert.ok(problem.includes(`Node.js ${MINIMUM_NODE} or newer`), problem);
    assert.ok(problem.includes(`this is Node.js ${version.replace(/^v/, '')}`), problem);
  }
});

test('npm start and the other entry points check the Node version before any TypeScript source', () => {
  const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  for (const name of ['start', 'web', 'test', 'bench', 'soak']) assert.match(scripts[name]!, /^node scripts\/require-node\.js && /, name);
  const engines = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines;
  assert.equal(engines.node, `>=${MINIMUM_NODE}`, 'package.json engines names the same minimum');
});

test('on this Node the check passes silently', () => {
  const result = spawnSync(process.execPath, [CHECK], { encoding: 'utf8' });
  assert.equal(result.status, 0);
  assert.equal(result.stdout + result.stderr, '');
});

const OLDER_NODE = '/usr/bin/node';
const olderVersion = existsSync(OLDER_NODE) ? spawnSync(OLDER_NODE, ['--version'], { encoding: 'utf8' }).stdout.trim() : '';
const skip = !olderVersion ? `no ${OLDER_NODE} here` : nodeVersionProblem(olderVersion) === null ? `${OLDER_NODE} is ${olderVersion}, not older` : false;

test('on an older Node, the check prints one line and exits 1, where start.ts alone would throw', { skip }, () => {
  const checked = spawnSync(OLDER_NODE, [CHECK], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(checked.status, 1);
  assert.equal(checked.stdout, '');
  assert.equal(checked.stderr, `benchlab: ${nodeVersionProblem(olderVersion)}\n`);
  // What `npm start` ran before: the start script itself, which that Node cannot even load.
  const unchecked = spawnSync(OLDER_NODE, [join(ROOT, 'scripts', 'start.ts')], { cwd: ROOT, encoding: 'utf8' });
  assert.notEqual(unchecked.status, 0);
  assert.ok(unchecked.stderr.split('\n').length > 2, 'a multi-line error, the reason for the check');
});
