// A think time in a plan file: read into the profile's closed load, written back the same, and a
// mistake in it placed on its line as every other problem of a plan file is.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parsePlanFile } from './plan-file.ts';
import { formatPlanFile } from './plan-file-format.ts';

const file = (load: string) => `version: 1\nname: siege db\ntemplates: [node:async]\nprofile:\n  request: { path: /docs }\n  load: ${load}\n`;

test('a think time is read into the closed load and written back the same', () => {
  const parsed = parsePlanFile(file('{ model: closed, connections: 100, requests: 10000, thinkTime: { kind: uniform, maxMs: 1000, roundToMs: 1000 } }'));
  assert.ok(parsed.ok);
  const load = parsed.plan.profile!.load;
  assert.deepEqual(load.model === 'closed' && load.thinkTime, { kind: 'uniform', minMs: 0, maxMs: 1000, roundToMs: 1000 });
  for (const format of ['yaml', 'json'] as const) {
    const again = parsePlanFile(formatPlanFile(parsed.plan, format), format);
    assert.ok(again.ok);
    assert.deepEqual(again.plan, parsed.plan, format);
  }
});

test('a mistake in it is placed on its line', () => {
  const parsed = parsePlanFile(file('\n    model: closed\n    connections: 10\n    durationS: 5\n    thinkTime: { kind: fixed, ms: -5 }'));
  assert.equal(parsed.ok, false);
  assert.deepEqual(
    parsed.ok ? [] : parsed.problems.map((problem) => `${problem.line} ${problem.field}: ${problem.message}`),
    ['10 profile.load.thinkTime.ms: must be greater than 0'],
  );
});
