import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { logTopic, type LogLine } from '../../app/common/log-contract.ts';
import { openDatabase } from './store/database.ts';
import { EventBus } from './event-bus.ts';
import { LogBacklogBuffer } from './log-backlog.ts';
import { Logger } from './logger.ts';
import { EventsRepository } from './store/events-repository.ts';

const line = (source: string, message: string, progress?: boolean): LogLine => ({ at: '2026-11-24T10:00:00.000Z', level: 'info', source, message, ...(progress ? { progress } : {}) });

test('a line belongs to its source and the subject its message starts with', () => {
  assert.equal(logTopic(line('templates', 'lab-server build: [INFO] BUILD SUCCESS')), 'templates: lab-server build');
  assert.equal(logTopic(line('runs', 'nginx sweep: step 2 of 3')), 'runs: nginx sweep');
  assert.equal(logTopic(line('runs', 'sessions 3, 4 ended without Benchlab')), 'runs');
  assert.equal(logTopic(line('agent', `${'x'.repeat(80)}: too long to be a subject`)), 'agent');
});

test('each topic keeps its own last lines, so a chatty server does not push a deploy out', () => {
  const backlog = new LogBacklogBuffer({ linesPerTopic: 3 });
  backlog.add(line('templates', 'lab-server: deploying Jetty'));
  backlog.add(line('templates', 'lab-server: Jetty is ready'));
  for (let index = 1; index <= 10; index += 1) backlog.add(line('templates', `lab-server jetty: request ${index}`));
  const topics = backlog.snapshot().topics;
  assert.deepEqual(
    topics.map((topic) => [topic.topic, topic.lines.map((kept) => kept.message)]),
    [
      ['templates: lab-server', ['lab-server: deploying Jetty', 'lab-server: Jetty is ready']],
      ['templates: lab-server jetty', ['lab-server jetty: request 8', 'lab-server jetty: request 9', 'lab-server jetty: request 10']],
    ],
  );
});

test('past the topic limit the topic quiet the longest is forgotten', () => {
  const backlog = new LogBacklogBuffer({ topics: 2 });
  backlog.add(line('runs', 'first: started'));
  backlog.add(line('runs', 'second: started'));
  backlog.add(line('runs', 'first: step 2')); // first is now the most recent
  backlog.add(line('runs', 'third: started'));
  assert.deepEqual(
    backlog.snapshot().topics.map((topic) => topic.topic),
    ['runs: first', 'runs: third'],
  );
});

test('a progress line replaces the previous one and the next ordinary line ends it', () => {
  const backlog = new LogBacklogBuffer();
  backlog.add(line('templates', 'h build: [INFO] Scanning for projects...'));
  backlog.add(line('templates', 'h build: downloading: 1 file, 3.9 kB', true));
  backlog.add(line('templates', 'h build: downloading: 2 files, 17 kB', true));
  let [topic] = backlog.snapshot().topics;
  assert.equal(topic!.progress?.message, 'h build: downloading: 2 files, 17 kB');
  assert.equal(topic!.lines.length, 1, 'progress lines are not added as lines');
  backlog.add(line('templates', 'h build: [INFO] BUILD SUCCESS'));
  [topic] = backlog.snapshot().topics;
  assert.equal(topic!.progress, null);
  assert.deepEqual(
    topic!.lines.map((kept) => kept.message),
    ['h build: [INFO] Scanning for projects...', 'h build: [INFO] BUILD SUCCESS'],
  );
});

test('the logger keeps what it publishes, and does not store progress lines', () => {
  const dir = mkdtempSync(join(tmpdir(), 'benchlab-log-backlog-'));
  const { db } = openDatabase(dir);
  const events = new EventsRepository(db);
  const bus = new EventBus();
  const published: LogLine[] = [];
  bus.subscribe('log', (payload) => published.push(payload));
  const log = new Logger(events, bus);
  log.info('templates', 'lab-server: deploying Jetty');
  log.progress('templates', 'lab-server build: downloading: 4 files, 1.2 MB');
  assert.deepEqual(
    published.map((sent) => [sent.message, sent.progress ?? false]),
    [
      ['lab-server: deploying Jetty', false],
      ['lab-server build: downloading: 4 files, 1.2 MB', true],
    ],
  );
  assert.deepEqual(
    events.recent().map((stored) => stored.message),
    ['lab-server: deploying Jetty'],
  );
  assert.deepEqual(
    log.backlog().topics.map((topic) => [topic.topic, topic.lines.length, topic.progress?.message ?? null]),
    [
      ['templates: lab-server', 1, null],
      ['templates: lab-server build', 0, 'lab-server build: downloading: 4 files, 1.2 MB'],
    ],
  );
  db.close();
  rmSync(dir, { recursive: true, force: true });
});
