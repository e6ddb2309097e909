// The CLI's raw `call` command on a real data dir: same contract, same validation, JSON out, clear errors.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';

const dataDir = mkdtempSync(join(tmpdir(), 'benchlab-cli-'));
after(() => rmSync(dataDir, { recursive: true, force: true }));

function cli(...args: string[]) {
  const result = spawnSync(process.execPath, [join(import.meta.dirname, 'benchlab.ts'), '--data-dir', dataDir, ...args], { encoding: 'utf8' });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

test('adds and lists hosts through the same contract as the UI', () => {
  const added = cli('call', 'hosts.add', JSON.stringify({ name: 'srv', address: '10.231.0.3', port: 22, user: 'root', auth: 'agent' }));
  assert.equal(added.code, 0, added.stderr);
  assert.equal(JSON.parse(added.stdout).name, 'srv');
  const listed = cli('call', 'hosts.list');
  assert.deepEqual(
    (JSON.parse(listed.stdout) as Array<{ name: string }>).map((host) => host.name),
    ['srv'],
  );
});

test('reports invalid arguments naming the field, with exit code 2', () => {
  const result = cli('call', 'hosts.add', JSON.stringify({ name: 'x', address: 'a b', port: 22, user: 'root', auth: 'agent' }));
  assert.equal(result.code, 2);
  assert.match(result.stderr, /invalid_args: address: must not contain spaces/);
});

test('refuses unknown requests and malformed JSON', () => {
  assert.match(cli('call', 'hosts.explode').stderr, /unknown_request/);
  const bad = cli('call', 'hosts.add', '{not json');
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /not valid JSON/);
});
