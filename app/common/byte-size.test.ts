import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatBytes, formatMemory } from './byte-size.ts';

test('formatBytes: decimal units, one decimal under ten', () => {
  assert.equal(formatBytes(345), '345 B');
  assert.equal(formatBytes(3_900), '3.9 kB');
  assert.equal(formatBytes(17_000), '17 kB');
  assert.equal(formatBytes(3_412_000), '3.4 MB');
  assert.equal(formatBytes(12_000_000_000), '12 GB');
});

test('formatMemory: binary units, GiB from one GiB up', () => {
  assert.equal(formatMemory(24 * 1024 ** 3), '24.0 GiB');
  assert.equal(formatMemory(512 * 1024 ** 2), '512 MiB');
});
