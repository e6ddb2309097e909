// Runtime versions in Compare's host diff: one runtime in two versions is flagged with both named;
// different runtimes (apache2 against node) and sessions that recorded nothing are not.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { diffRuntimes, runtimeVersionsOf } from './runtime-diff.ts';

test('the same runtime in two versions is flagged, naming each session', () => {
  const diff = diffRuntimes(['restify', 'node'], [{ components: { node: '24.11.0', restify: '11.1.0' } }, { components: { node: '20.19.2' } }]);
  assert.deepEqual(diff.rows, [{ role: 'server', label: 'node version', values: ['24.11.0', '20.19.2'], differs: true }]);
  assert.deepEqual(diff.warnings, ["The servers ran on different node versions: 24.11.0 (“restify”), 20.19.2 (“node”); part of the difference may be the runtime's."]);
});

test('different runtimes, one version each, and unrecorded ones are no difference', () => {
  const diff = diffRuntimes(['apache', 'node', 'old'], [{ components: { apache2: '2.4.62' } }, { components: { node: '24.11.0', express: '5.3.0' } }, {}]);
  assert.deepEqual(diff.warnings, []);
  assert.deepEqual(diff.rows.map((row) => [row.label, row.values, row.differs]), [
    ['node version', [null, '24.11.0', null], false],
    ['apache2 version', ['2.4.62', null, null], false],
  ]);
  assert.deepEqual(diffRuntimes(['a'], [{}]).rows, [], 'nothing recorded: no rows');
  assert.deepEqual(runtimeVersionsOf({ components: ['node'] }), {}, 'a malformed record reads as none');
});
