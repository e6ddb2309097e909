// Tests of a stored run's server memory: the summary's own figures, else the measured seconds'
// readings (a summary stored before the memory was kept), else why there is none — no server
// readings at all, or readings that found no server process.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MEMORY_MISSING, storedServerMemory } from './server-memory.ts';

const MIB = 1024 * 1024;
const second = (n: number, rss: number | null, phase = 'measure'): { second: number; phase: string; serverMetrics: Record<string, number> } => ({
  second: n,
  phase,
  serverMetrics: rss === null ? { cpu: 0.5 } : { cpu: 0.5, processRssBytes: rss },
});

test('the summary’s figures when it kept them; the seconds are not read then', () => {
  const memory = { minBytes: MIB, maxBytes: 3 * MIB, endBytes: 2 * MIB };
  assert.deepEqual(storedServerMemory({ serverMemory: memory }, () => assert.fail('no seconds read')), memory);
});

test('a summary stored before the memory was kept reads it from the measured seconds, warm-up left out', () => {
  const seconds = [second(0, 9 * MIB, 'warmup'), second(1, 2 * MIB), second(2, 5 * MIB), second(3, 4 * MIB)];
  assert.deepEqual(storedServerMemory({}, () => seconds), { minBytes: 2 * MIB, maxBytes: 5 * MIB, endBytes: 4 * MIB });
  assert.deepEqual(storedServerMemory(null, () => seconds), { minBytes: 2 * MIB, maxBytes: 5 * MIB, endBytes: 4 * MIB }, 'a run cut off before its summary');
});

test('without figures it says why: no server readings, or no server process found', () => {
  assert.equal(storedServerMemory({ serverMemory: null }, () => [{ second: 1, phase: 'measure', serverMetrics: null }]), MEMORY_MISSING.noReadings);
  assert.equal(storedServerMemory({}, () => []), 'no server readings');
  assert.equal(storedServerMemory({ serverMemory: null }, () => [second(1, null), second(2, null)]), 'server process not found');
});
