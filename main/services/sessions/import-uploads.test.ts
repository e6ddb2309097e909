// The Sessions page's import in pieces, through the services and the contract's dispatcher on a
// real SQLite file: a fixture sent in small pieces is the same session as the file imported from
// disk; a character split between pieces stays whole; pieces out of order, past the declared size,
// of an unknown upload or over the cap are refused and store nothing; cancel, finish (good or bad
// file), a minute without a piece and a new process's start leave no temporary file behind.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import { parseArgs } from '../../../app/contract.ts';
import { MAX_PAYLOAD_BYTES } from '../../../app/common/safe-json.ts';
import { IMPORT_CHUNK_BYTES, MAX_IMPORT_FILE_BYTES, type ImportFormat } from '../../../app/sessions/importers/index.ts';
import type { Session } from '../../../app/sessions/sessions.ts';
import { until } from '../../../tests/support/until.ts';
import { createHandlers } from '../../api/handlers.ts';
import { createDispatcher, type DispatchOutcome } from '../../api/dispatch.ts';
import { RunsRepository } from '../runs/runs-repository.ts';
import { SamplesRepository } from '../runs/samples-repository.ts';
import { processOwner } from '../store/process-owner.ts';
import { createServices } from '../services.ts';
import { SessionImporter } from './session-import.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'benchlab-uploads-'));
const services = createServices({ dataDir, transport: 'web', version: 'test' });
after(() => {
  services.close();
  rmSync(dataDir, { recursive: true, force: true });
});
const dispatch = createDispatcher(createHandlers(services), (error) => assert.fail(String(error)));
const runs = new RunsRepository(services.db);
const samples = new SamplesRepository(services.db);
const uploadsDir = join(dataDir, 'tmp', 'imports');
const fixturePath = (name: string) => fileURLToPath(new URL(`../../../tests/fixtures/imports/${name}`, import.meta.url));
const leftovers = () => {
  try {
    return readdirSync(uploadsDir);
  } catch {
    return [];
  }
};
const sessionCount = () => services.sessions.list().length;

async function ok<T>(name: string, args: unknown): Promise<T> {
  const outcome = await dispatch(name, args);
  if (!outcome.ok) assert.fail(`${name} refused: ${outcome.error.message}`);
  return outcome.result as T;
}

async function refused(name: string, args: unknown): Promise<Extract<DispatchOutcome, { ok: false }>['error']> {
  const outcome = await dispatch(name, args);
  if (outcome.ok) assert.fail(`${name} was accepted`);
  return outcome.error;
}

const begin = (fileName: string, format: ImportFormat, size: number) => ok<{ uploadId: string; chunkBytes: number }>('sessions.importBegin', { fileName, format, size });
const chunk = (uploadId: string, offset: number, bytes: Buffer) => ok<{ received: number }>('sessions.importChunk', { uploadId, offset, data: bytes.toString('base64') });

/** The file's bytes sent in pieces that end at `cuts` (byte offsets), in order, then finished. */
async function upload(fileName: string, format: ImportFormat, bytes: Buffer, cuts: number[]): Promise<Session> {
  const { uploadId } = await begin(fileName, format, bytes.length);
  let offset = 0;
  for (const end of [...cuts, bytes.length]) {
    const { received } = await chunk(uploadId, offset, bytes.subarray(offset, end));
    assert.equal(received, end);
    offset = end;
  }
  return ok<Session>('sessions.importFinish', { uploadId });
}

const everyBytes = (size: number, piece: number) => Array.from({ length: Math.ceil(size / piece) - 1 }, (_, index) => (index + 1) * piece);

function storedRun(sessionId: number) {
  const [run] = runs.withHistograms(sessionId);
  assert.ok(run);
  return { summary: run.summary, histogram: run.histogram, step: run.step, seconds: samples.forRun(run.id) };
}

test('a per-request file sent in small pieces is the same session as the file imported from disk', async () => {
  for (const [name, format] of [['ab-g.tsv', 'ab'], ['k6-points.ndjson', 'k6']] as const) {
    const bytes = readFileSync(fixturePath(name));
    const cuts = everyBytes(bytes.length, name === 'ab-g.tsv' ? 4099 : 97);
    assert.ok(cuts.length >= 30, 'many pieces, most ending inside a line');
    const uploaded = await upload(name, format, bytes, cuts);
    const fromDisk = await services.imports.importFile(fixturePath(name), { format, fileName: name });
    assert.equal(uploaded.name, `${name} (imported from ${format})`);
    assert.deepEqual({ ...uploaded.config, imported: { ...(uploaded.config.imported as object), importedAt: null } }, { ...fromDisk.config, imported: { ...(fromDisk.config.imported as object), importedAt: null } });
    assert.deepEqual(storedRun(uploaded.id), storedRun(fromDisk.id));
    assert.ok(storedRun(uploaded.id).summary!.requests > 0);
  }
  assert.deepEqual(leftovers(), [], 'finishing removed the temporary file');
});

test('a character split between two pieces arrives whole', async () => {
  const text = readFileSync(fixturePath('wrk-latency.txt'), 'utf8').replace('http://127.0.0.1:18089/hello', 'http://127.0.0.1:18089/héllo/€');
  const bytes = Buffer.from(text, 'utf8');
  const acute = bytes.indexOf(Buffer.from('é'));
  const euro = bytes.indexOf(Buffer.from('€'));
  // Inside é's two bytes, and between the second and third of €'s three.
  const session = await upload('wrk-utf8.txt', 'wrk', bytes, [acute + 1, euro + 2]);
  assert.equal(session.config.target, 'http://127.0.0.1:18089/héllo/€');
});

test('pieces out of order, past the declared size or of an unknown upload are refused, and nothing is stored', async () => {
  const before = sessionCount();
  const bytes = readFileSync(fixturePath('hey.csv'));
  const { uploadId, chunkBytes } = await begin('hey.csv', 'hey', bytes.length);
  assert.equal(chunkBytes, IMPORT_CHUNK_BYTES);
  const [part] = leftovers();
  assert.match(part!, /\.part$/);
  assert.equal(statSync(join(uploadsDir, part!)).mode & 0o777, 0o600, 'readable by this user only');
  await chunk(uploadId, 0, bytes.subarray(0, 100));

  assert.deepEqual(await refused('sessions.importChunk', { uploadId, offset: 200, data: bytes.subarray(200, 300).toString('base64') }), {
    code: 'conflict',
    message: 'hey.csv: a piece at byte 200 arrived where byte 100 was due: pieces go in order',
  });
  assert.deepEqual(await refused('sessions.importChunk', { uploadId, offset: 0, data: bytes.subarray(0, 100).toString('base64') }), {
    code: 'conflict',
    message: 'hey.csv: a piece at byte 0 arrived where byte 100 was due: pieces go in order',
  });
  assert.deepEqual(await refused('sessions.importChunk', { uploadId, offset: 100, data: Buffer.concat([bytes.subarray(100), Buffer.from('0.1,0,0,0,0,0,200,9\n')]).toString('base64') }), {
    code: 'invalid_args',
    message: `hey.csv: a piece ends at byte ${bytes.length + 20}, past the ${bytes.length} bytes the file was said to have`,
  });
  assert.equal((await refused('sessions.importChunk', { uploadId, offset: 100, data: 'not base64!' })).code, 'invalid_args');
  const unknown = '00000000-0000-4000-8000-000000000000';
  const gone = { code: 'not_found', message: 'this upload is gone (finished, cancelled, or dropped after a minute without data): choose the file again' };
  assert.deepEqual(await refused('sessions.importChunk', { uploadId: unknown, offset: 0, data: 'AAAA' }), gone);
  assert.deepEqual(await refused('sessions.importFinish', { uploadId: unknown }), gone);
  assert.deepEqual(await refused('sessions.importBegin', { fileName: 'other.csv', format: 'hey', size: 10 }), { code: 'conflict', message: 'another import is under way (hey.csv, 24 % received): import this file when it ends' });

  // Finishing an upload that lacks bytes drops it: nothing stored, no file left.
  assert.deepEqual(await refused('sessions.importFinish', { uploadId }), { code: 'invalid_args', message: 'hey.csv: the upload stopped at 24 % of the file: choose the file again' });
  assert.deepEqual(leftovers(), []);
  assert.deepEqual(await refused('sessions.importChunk', { uploadId, offset: 100, data: bytes.subarray(100).toString('base64') }), gone);
  assert.deepEqual(await refused('sessions.importBegin', { fileName: 'huge.csv', format: 'hey', size: MAX_IMPORT_FILE_BYTES + 1 }), { code: 'too_large', message: 'huge.csv is 512 MiB: imports are limited to 512 MiB' });
  assert.deepEqual(leftovers(), []);
  assert.equal(sessionCount(), before);
});

test('a bad file is refused at finish with its line, stores nothing and leaves no temporary file', async () => {
  const before = sessionCount();
  const bytes = readFileSync(fixturePath('jmeter.jtl'));
  const { uploadId } = await begin('results.csv', 'hey', bytes.length);
  await chunk(uploadId, 0, bytes);
  assert.deepEqual(await refused('sessions.importFinish', { uploadId }), { code: 'invalid_args', message: "results.csv:1: this looks like JMeter's JTL CSV, not hey's CSV: import it as jmeter" });
  assert.deepEqual(leftovers(), []);
  assert.equal(sessionCount(), before);
});

test('cancel drops the upload and its temporary file', async () => {
  const before = sessionCount();
  const { uploadId } = await begin('hey.csv', 'hey', 409);
  await chunk(uploadId, 0, Buffer.from('response-time,DNS+dialup'));
  assert.equal(leftovers().length, 1);
  assert.deepEqual(await ok('sessions.importCancel', { uploadId }), { cancelled: true });
  assert.deepEqual(leftovers(), []);
  assert.deepEqual(await ok('sessions.importCancel', { uploadId }), { cancelled: false }, 'cancelling twice is no error');
  assert.equal(sessionCount(), before);
});

test('a full piece fits the transport, and a larger one is refused by the contract', () => {
  const full = Buffer.alloc(IMPORT_CHUNK_BYTES, 0xff).toString('base64');
  const message = JSON.stringify({ type: 'call', id: 2 ** 31, name: 'sessions.importChunk', args: { uploadId: '00000000-0000-4000-8000-000000000000', offset: MAX_IMPORT_FILE_BYTES, data: full } });
  assert.ok(message.length < MAX_PAYLOAD_BYTES, `${message.length} bytes`);
  assert.equal(parseArgs('sessions.importChunk', { uploadId: '00000000-0000-4000-8000-000000000000', offset: 0, data: full }).ok, true);
  const larger = Buffer.alloc(IMPORT_CHUNK_BYTES + 3, 0xff).toString('base64');
  assert.equal(parseArgs('sessions.importChunk', { uploadId: '00000000-0000-4000-8000-000000000000', offset: 0, data: larger }).ok, false);
});

test('an upload without a piece for the abandon time is dropped with its file', async () => {
  const dir = join(dataDir, 'abandoned');
  const importer = new SessionImporter({ db: services.db, sessions: services.sessions, uploadsDir: dir, abandonUploadAfterMs: 100 });
  const { uploadId } = importer.beginUpload({ fileName: 'slow.csv', format: 'hey' }, 1000);
  importer.uploadChunk(uploadId, 0, Buffer.from('response-time').toString('base64'));
  assert.equal(readdirSync(dir).length, 1);
  await until(() => readdirSync(dir).length === 0, 'the abandoned upload to be dropped', 5000);
  assert.throws(() => importer.uploadChunk(uploadId, 13, 'AAAA'), { code: 'not_found' });
  // The next upload is welcome again.
  const next = importer.beginUpload({ fileName: 'next.csv', format: 'hey' }, 0);
  assert.deepEqual(importer.cancelUpload(next.uploadId), { cancelled: true });
});

test("at start, the files of processes that ended are removed; a running process's upload is left alone", () => {
  const dir = join(dataDir, 'start');
  mkdirSync(dir, { recursive: true });
  const live = `${processOwner().replace(':', '+')}.11111111-1111-4111-8111-111111111111.part`;
  // No process has this pid: the kernel's pids stay below 2^22.
  const dead = '999999999+12345.22222222-2222-4222-8222-222222222222.part';
  for (const name of [live, dead, 'stray.tmp']) writeFileSync(join(dir, name), 'x');
  const importer = new SessionImporter({ db: services.db, sessions: services.sessions, uploadsDir: dir });
  assert.deepEqual(readdirSync(dir), [live]);
  importer.close();
});
