// Closing Benchlab while work is in flight (a real back end in a child process, "This machine" as
// its host): the process ends on its own with exit code 0 and no stack, requests that arrive once
// shutdown began are refused, a running session is stopped with its seconds kept, a connect check
// that hangs is given up after its bound with a log line, and a log line after the close is dropped
// with a debug note on stderr instead of throwing.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, afterEach, before, beforeEach, test } from 'node:test';
import { startTestServer, type TestServer } from '../../agent/agent-harness.ts';
import type { LogLine } from '../../app/contract.ts';
import { within } from '../../tests/support/until.ts';
import { createServices } from './services.ts';
import { SamplesRepository } from './runs/samples-repository.ts';

const CHILD = resolve(import.meta.dirname, '..', '..', 'tests', 'support', 'shutdown-child.ts');
const LATE_LINE = 'a line written after the store closed';

let server: TestServer;
let dir: string;

before(async () => {
  server = await startTestServer();
});

after(async () => {
  await server.close();
});

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'benchlab-shutdown-'));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

interface ChildEnd {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  messages: Array<{ started?: number; point?: { warmup: boolean }; refused?: { ok: boolean; error?: { code: string; message: string } }; log?: LogLine; closed?: boolean }>;
}

/** Runs the child to its own end: one that never ends (a handle left open) fails the wait. */
async function runChild(args: Record<string, unknown>): Promise<ChildEnd> {
  const child = spawn(process.execPath, [CHILD, dir, JSON.stringify(args)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => child.once('close', (code, signal) => done({ code, signal })));
  try {
    const { code, signal } = await within(ended, 'the child to end on its own after closing', 60_000);
    const messages = stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as ChildEnd['messages'][number]);
    return { code, signal, stderr, messages };
  } finally {
    child.kill('SIGKILL');
  }
}

/** Exit 0, nothing on stderr but debug notes, refused while closing, the late line dropped with a note. */
function assertClosedCleanly(end: ChildEnd): void {
  assert.equal(end.code, 0, `the child exited ${end.code ?? end.signal}; stderr:\n${end.stderr}`);
  const other = end.stderr.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('benchlab: debug: '));
  assert.deepEqual(other, [], 'nothing on stderr but debug notes');
  const refused = end.messages.find((message) => message.refused)?.refused;
  assert.equal(refused?.ok, false, 'a request during shutdown is refused');
  assert.equal(refused?.error?.code, 'unavailable');
  assert.match(refused?.error?.message ?? '', /Benchlab is shutting down/);
  assert.ok(end.messages.some((message) => message.closed), 'the close finished');
  assert.match(end.stderr, new RegExp(`benchlab: debug: .*store is closed.*${LATE_LINE}`), 'the late line is dropped with a debug note');
}

test('closing while the connect check of This machine runs ends the process cleanly', async () => {
  const end = await runChild({ scenario: 'connect' });
  assertClosedCleanly(end);
});

test('a connect check that never ends is given up after the bound, with a log line', async () => {
  const end = await runChild({ scenario: 'hung-check', waitMs: 300 });
  assertClosedCleanly(end);
  const gaveUp = end.messages.find((message) => message.log && /gave up waiting/.test(message.log.message))?.log;
  assert.ok(gaveUp, 'a log line says what was given up');
  assert.match(gaveUp.message, /connect check/);
});

test('closing mid-run stops the session and keeps its seconds', async () => {
  const end = await runChild({ scenario: 'run', target: `http://127.0.0.1:${server.port}` });
  assertClosedCleanly(end);
  const sessionId = end.messages.find((message) => message.started)?.started;
  assert.ok(sessionId, 'the session started');
  const charted = end.messages.filter((message) => message.point && !message.point.warmup).length;
  const services = createServices({ dataDir: dir, transport: 'cli', version: 'test' });
  try {
    assert.equal(services.sessions.get(sessionId).status, 'cancelled', 'stopped by the shutdown, not left running');
    const [run] = services.runs.list(sessionId);
    assert.equal(run!.status, 'stopped');
    const stored = new SamplesRepository(services.db).forRun(run!.id).filter((second) => second.phase === 'measure').length;
    assert.ok(stored >= charted, `stored ${stored} measured seconds, charted ${charted}`);
    assert.ok(!services.events.recent().some((line) => line.message === LATE_LINE), 'the late line was not stored');
  } finally {
    await services.close();
  }
});
