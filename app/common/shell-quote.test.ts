// shellQuote survives a real sh: every tricky string comes back byte for byte.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { shellQuote } from './shell-quote.ts';

test('sh reads quoted strings back unchanged', () => {
  const samples = ["plain", "it's", "a'b'c", '$(reboot)', '`id`', 'x; rm -rf /', 'new\nline', '"dq" \\ back', '', "''", '*?[]~#&|<>'];
  for (const sample of samples) {
    const echoed = execFileSync('/bin/sh', ['-c', `printf %s ${shellQuote(sample)}`], { encoding: 'utf8' });
    assert.equal(echoed, sample);
  }
});
