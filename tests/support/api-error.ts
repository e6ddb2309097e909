// The one check tests hand to assert.throws/rejects for a refusal: an ApiError of this code, its
// message matching (when given). Written once so every test reads a refusal the same way.

import assert from 'node:assert/strict';
import { ApiError } from '../../app/common/errors.ts';

export function apiError(code: string, pattern?: RegExp): (error: unknown) => boolean {
  return (error) => {
    assert.ok(error instanceof ApiError, `expected an ApiError, got ${String(error)}`);
    assert.equal(error.code, code);
    if (pattern) assert.match(error.message, pattern);
    return true;
  };
}
