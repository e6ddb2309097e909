// The log view's text for xterm: the backlog merged into one story, and progress lines that
// rewrite their own row rather than adding rows.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LogLine } from '../../app/common/log-contract.ts';
import { backlogLines, lineKey, LogLineWriter } from '../../renderer/src/features/terminals/log-view.ts';

const at = (second: number) => `2026-11-24T10:00:${String(second).padStart(2, '0')}.000Z`;
const line = (second: number, message: string, progress?: boolean): LogLine => ({ at: at(second), level: 'info', source: 'templates', message, ...(progress ? { progress } : {}) });
// eslint-disable-next-line no-control-regex
const plain = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, '');

test('the backlog reads as one story in time order, each topic’s progress after its lines', () => {
  const merged = backlogLines({
    topics: [
      { topic: 'templates: h', lines: [line(1, 'h: deploying'), line(5, 'h: ready')], progress: null },
      { topic: 'templates: h build', lines: [line(2, 'h build: [INFO] Scanning')], progress: line(3, 'h build: Maven downloaded 3 files, 1.0 MB so far (a.jar)', true) },
    ],
  });
  assert.deepEqual(
    merged.map((kept) => kept.message),
    ['h: deploying', 'h build: [INFO] Scanning', 'h build: Maven downloaded 3 files, 1.0 MB so far (a.jar)', 'h: ready'],
  );
  assert.notEqual(lineKey(merged[2]!), lineKey({ ...merged[2]!, progress: undefined }), 'a progress line is told from a line of the same text');
});

test('a progress line rewrites its row; any other line ends it first', () => {
  const writer = new LogLineWriter();
  const written = [
    writer.text(line(1, 'h build: [INFO] Scanning'), 120),
    writer.text(line(2, 'h build: Maven downloaded 1 file, 3.9 kB so far (a.pom)', true), 120),
    writer.text(line(3, 'h build: Maven downloaded 9 files, 1.2 MB so far (b.jar)', true), 120),
    writer.text(line(4, 'h build: [INFO] BUILD SUCCESS'), 120),
  ];
  assert.ok(written[0]!.endsWith('\r\n'));
  assert.ok(!written[1]!.includes('\n'), 'a progress line stays open on its row');
  assert.ok(written[2]!.startsWith('\r\x1b[2K'), 'the next progress line of the topic clears that row and writes over it');
  assert.match(plain(written[2]!), /Maven downloaded 9 files, 1\.2 MB so far \(b\.jar\)$/);
  assert.ok(written[3]!.startsWith('\r\n'), 'an ordinary line ends the progress row, which stays as it was last');
});

test('progress of another topic gets a row of its own, and a long progress line is cut to stay on one row', () => {
  const writer = new LogLineWriter();
  writer.text(line(1, 'a build: Maven downloaded 1 file, 1 kB so far (x.pom)', true), 40);
  const other = writer.text({ ...line(2, `b build: npm fetched 3 package documents so far (${'y'.repeat(60)})`, true) }, 40);
  assert.ok(other.startsWith('\r\n'), 'not written over the other topic’s row');
  assert.ok(plain(other).replace(/^\r\n/, '').length <= 39, `fits 39 columns: ${JSON.stringify(plain(other))}`);
  assert.ok(plain(other).endsWith('…'));
});
