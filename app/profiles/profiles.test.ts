// Tests of folded text: reading skips what is not a stack line, writing merges equal stacks and
// keeps frames free of the separator, and the counts.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { foldedCounts, foldedText, parseFolded } from './profiles.ts';

describe('folded stacks', () => {
  test('parses frames root first with their count, skipping blank, header and count-less lines', () => {
    const stacks = parseFolded('# header\nmain;a;b 3\n\nmain;c 2\nno-count\nmain;d x\n');
    assert.deepEqual(stacks, [
      { frames: ['main', 'a', 'b'], count: 3 },
      { frames: ['main', 'c'], count: 2 },
    ]);
  });

  test('a frame may hold spaces: only the last space separates the count', () => {
    assert.deepEqual(parseFolded('void Foo.bar(int x);baz 7'), [{ frames: ['void Foo.bar(int x)', 'baz'], count: 7 }]);
  });

  test('writes equal stacks once with their counts added, sorted, separators in frames replaced', () => {
    const text = foldedText([
      { frames: ['main', 'b'], count: 1 },
      { frames: ['main', 'a;x'], count: 2 },
      { frames: ['main', 'b'], count: 4 },
      { frames: [], count: 9 },
    ]);
    assert.equal(text, 'main;a_x 2\nmain;b 5\n');
    assert.deepEqual(foldedCounts(text), { samples: 7, stacks: 2 });
    assert.equal(foldedText([]), '');
  });
});
