import assert from 'node:assert/strict';
import { test } from 'node:test';
import { z } from 'zod';
import { describeZodError } from './zod-issues.ts';

test('issues read as field: message, unknown keys named, a missing field required, at most three', () => {
  const schema = z.object({ port: z.number().int().min(1, 'must be at least 1'), name: z.string(), a: z.string(), b: z.string() }).strict();
  const missing = schema.safeParse({ port: 0, a: 'x', b: 'y' });
  assert.equal(missing.success, false);
  assert.equal(describeZodError(missing.error!), 'port: must be at least 1; name: is required');
  const unknown = schema.safeParse({ port: 1, name: 'n', a: 'x', b: 'y', c: 1, d: 2 });
  assert.equal(describeZodError(unknown.error!), 'unknown fields "c", "d"');
  const many = schema.safeParse({});
  assert.equal(describeZodError(many.error!).split('; ').length, 3);
});
