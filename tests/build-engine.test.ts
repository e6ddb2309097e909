// The native engine's build (scripts/build-engine.ts) on a small Go module of its own: static Linux
// binaries for both architectures, rebuilt only when a source it is built from changes, and a clear
// "unavailable" without Go.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { nativeEngineFileName } from '../app/runs/engine-choice.ts';
import { engineSkipOrFail } from './support/lab-required.ts';
import { buildEngine, ENGINE_HASH_FILE, type EngineBuild } from '../scripts/build-engine.ts';

const dir = mkdtempSync(join(tmpdir(), 'benchlab-engine-build-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const source = join(dir, 'src');
const out = join(dir, 'out');

function hasGo(): boolean {
  for (const go of ['go', '/usr/local/go/bin/go']) {
    try {
      execFileSync(go, ['version'], { stdio: 'ignore' });
      return true;
    } catch {
      // next
    }
  }
  return false;
}

function writeModule(message: string): void {
  execFileSync('mkdir', ['-p', source]);
  writeFileSync(join(source, 'go.mod'), 'module example/engine\n\ngo 1.21\n');
  writeFileSync(join(source, 'main.go'), `package main\n\nimport "fmt"\n\nfunc main() { fmt.Println(${JSON.stringify(message)}) }\n`);
}

/** The result of a build that made or found binaries (fails the test otherwise). */
function binariesOf(result: EngineBuild, status: 'built' | 'up-to-date'): Extract<EngineBuild, { binaries: unknown }> {
  if (result.status === 'unavailable') assert.fail(`unavailable: ${result.reason}`);
  assert.equal(result.status, status);
  return result;
}

/** The ELF header's e_machine: 0x3e x86-64, 0xb7 AArch64. */
function elfMachine(file: string): number {
  const header = readFileSync(file).subarray(0, 20);
  assert.equal(header.subarray(0, 4).toString('latin1'), '\x7fELF', `${file} is an ELF binary`);
  return header.readUInt16LE(18);
}

test('builds both architectures once, and again only when a source changes', { skip: engineSkipOrFail(hasGo() ? null : 'Go is not installed here') ?? false }, async () => {
  writeModule('one');
  const first = binariesOf(await buildEngine({ sourceDir: source, outDir: out }), 'built');
  assert.equal(first.binaries.amd64, join(out, nativeEngineFileName('amd64')));
  assert.equal(elfMachine(first.binaries.amd64), 0x3e);
  assert.equal(elfMachine(first.binaries.arm64), 0xb7);
  assert.equal(readFileSync(join(out, ENGINE_HASH_FILE), 'utf8').trim(), first.hash);
  assert.equal(execFileSync(first.binaries.amd64, { encoding: 'utf8' }), 'one\n', 'the amd64 binary runs here');
  const builtAt = statSync(first.binaries.amd64).mtimeMs;

  // A test file is not what the binary is built from.
  writeFileSync(join(source, 'main_test.go'), 'package main\n');
  const second = binariesOf(await buildEngine({ sourceDir: source, outDir: out }), 'up-to-date');
  assert.equal(second.hash, first.hash);
  assert.equal(statSync(first.binaries.amd64).mtimeMs, builtAt, 'the binary was not rebuilt');

  writeModule('two');
  const third = binariesOf(await buildEngine({ sourceDir: source, outDir: out }), 'built');
  assert.notEqual(third.hash, first.hash);
  assert.equal(execFileSync(third.binaries.amd64, { encoding: 'utf8' }), 'two\n');

  // A binary removed by hand is built again although the stamp still matches.
  rmSync(third.binaries.arm64);
  assert.equal((await buildEngine({ sourceDir: source, outDir: out })).status, 'built');
});

test('without Go, or without sources, the engine is unavailable and says why', async () => {
  writeModule('three');
  const noGo = await buildEngine({ sourceDir: source, outDir: join(dir, 'elsewhere'), go: join(dir, 'no-such-go') });
  assert.deepEqual(noGo, { status: 'unavailable', reason: 'Go is not installed on this machine (no go on PATH nor /usr/local/go/bin/go)' });
  const noSources = await buildEngine({ sourceDir: join(dir, 'missing'), outDir: join(dir, 'elsewhere') });
  assert.equal(noSources.status, 'unavailable');
  assert.match(noSources.status === 'unavailable' ? noSources.reason : '', /sources are missing/);
});
