import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decideEngine, EngineChoice, nativeEngineArch, nativeEngineObstacle, recordedEngineOf } from './engine-choice.ts';

const linux = { os: 'Linux', machine: 'x86_64' };

test("uname -m names map to Go's architectures the engine is built for", () => {
  assert.equal(nativeEngineArch('x86_64'), 'amd64');
  assert.equal(nativeEngineArch('aarch64'), 'arm64');
  assert.equal(nativeEngineArch('arm64\n'), 'arm64');
  assert.equal(nativeEngineArch('armv7l'), null);
  assert.equal(nativeEngineArch('riscv64'), null);
  assert.equal(nativeEngineArch(''), null);
});

test('the native engine runs on Linux x86_64 or aarch64 against http only', () => {
  assert.equal(nativeEngineObstacle(linux, 'http'), null);
  assert.equal(nativeEngineObstacle({ os: 'Linux', machine: 'aarch64' }, 'http'), null);
  assert.equal(nativeEngineObstacle(linux, 'https'), 'the target is https, which the native engine does not speak');
  assert.equal(nativeEngineObstacle({ os: 'Darwin', machine: 'arm64' }, 'http'), 'it runs Darwin, not Linux');
  assert.equal(nativeEngineObstacle({ os: 'Linux', machine: 'armv7l' }, 'http'), 'no native engine is built for armv7l (only x86_64 and aarch64)');
  assert.equal(nativeEngineObstacle({ os: '', machine: '' }, 'http'), 'it runs an unknown system, not Linux');
});

test('auto uses the native engine where it can, else the Node engine with one notice', () => {
  assert.deepEqual(decideEngine('auto', 'client', null), { kind: 'native', notice: null });
  assert.deepEqual(decideEngine('auto', 'client', 'it runs Darwin, not Linux'), {
    kind: 'node',
    notice: 'native engine unavailable on client: it runs Darwin, not Linux; using the Node engine',
  });
});

test('native forced where it cannot run is an error; node is node whatever the host', () => {
  assert.deepEqual(decideEngine('native', 'client', null), { kind: 'native', notice: null });
  assert.deepEqual(decideEngine('native', 'client', 'the target is https, which the native engine does not speak'), {
    error: 'the native engine is unavailable on client: the target is https, which the native engine does not speak; choose the engine auto or node',
  });
  assert.deepEqual(decideEngine('node', 'client', null), { kind: 'node', notice: null });
  assert.deepEqual(decideEngine('node', 'client', 'anything'), { kind: 'node', notice: null });
});

test('the choice is one of three words, and a session reads back what it recorded', () => {
  assert.equal(EngineChoice.safeParse('turbo').success, false);
  assert.equal(EngineChoice.parse('node'), 'node');
  const recorded = { choice: 'auto', kind: 'node', notice: 'native engine unavailable on c: x; using the Node engine' };
  assert.deepEqual(recordedEngineOf({ profile: {}, engine: recorded }), recorded);
  assert.equal(recordedEngineOf({ profile: {} }), null, 'a session from before engines were recorded');
  assert.equal(recordedEngineOf({ engine: { choice: 'auto', kind: 'rust', notice: null } }), null);
});
