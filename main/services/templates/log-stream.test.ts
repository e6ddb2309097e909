import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseSha256sum } from './file-sync.ts';
import { ServerLogStream } from './log-stream.ts';

test('log lines are split across chunks and attributed to their file', () => {
  const written: string[] = [];
  const stream = new ServerLogStream((line) => written.push(line));
  stream.push('==> server.log <==\nlisten');
  stream.push('ing on 8080\n\n==> error.log <==\nAH00489 ready\n');
  stream.push('partial');
  stream.flush();
  assert.deepEqual(written, ['listening on 8080', '[error.log] AH00489 ready', '[error.log] partial']);
  assert.deepEqual(stream.tail(), written);
});

test('a flood is cut to the rate limit and the skipped lines are counted; the tail keeps the latest', () => {
  let now = 0;
  const written: string[] = [];
  const stream = new ServerLogStream((line) => written.push(line), { maxLinesPerSecond: 3, tailLines: 2, now: () => now });
  stream.push('1\n2\n3\n4\n5\n');
  now = 1500;
  stream.push('6\n');
  assert.deepEqual(written, ['1', '2', '3', '[… 2 log lines skipped: more than 3 per second]', '6']);
  assert.deepEqual(stream.tail(), ['5', '6']);
});

test('sha256sum output is read in text and binary mode', () => {
  const hash = 'a'.repeat(64);
  const hashes = parseSha256sum(`${hash}  server.mjs\n${'b'.repeat(64)} *htdocs/file\nsha256sum: x: No such file\n`);
  assert.deepEqual([...hashes], [['server.mjs', hash], ['htdocs/file', 'b'.repeat(64)]]);
});
