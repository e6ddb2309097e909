// Imports another load tool's results file as a stored session: the importers (app/sessions/
// importers/) read it from disk, streamed line by line so a 500 MB per-request file is never one
// string — the CLI's file where it lies, the Sessions page's once its upload is complete (sent in
// pieces, kept by ImportUploads) — and the result is stored through the repositories in one
// transaction: the session, its run, the per-second samples (read back by Compare, replay and the
// summary like Benchlab's own), and the run's summary from the one summarizer (a per-request
// import) or as the tool printed it (a summary-only one). A bad file stores nothing.

import { open, rm, type FileHandle } from 'node:fs/promises';
import { basename } from 'node:path';
import { ApiError } from '../../../app/common/errors.ts';
import { summarizeRun, summaryRulesOf } from '../../../app/runs/summarize-run.ts';
import { IMPORT_CHUNK_BYTES, ImportReader, importText, MAX_IMPORT_FILE_BYTES, MAX_LINE_CHARS, type ImportedResult } from '../../../app/sessions/importers/index.ts';
import { abRunOf } from '../../../app/sessions/importers/ab.ts';
import { ImportError } from '../../../app/sessions/importers/imported-result.ts';
import { importedSessionRecord, type ImportNaming } from '../../../app/sessions/importers/imported-session.ts';
import type { Session } from '../../../app/sessions/sessions.ts';
import { RunsRepository } from '../runs/runs-repository.ts';
import { SamplesRepository } from '../runs/samples-repository.ts';
import type { Db } from '../store/database.ts';
import { ImportUploads, type ImportRequest } from './import-uploads.ts';
import type { SessionsRepository } from '../runs/sessions-repository.ts';

/** Samples are appended in batches of this many seconds (each batch its own savepoint in the one transaction). */
const BATCH = 600;

export class SessionImporter {
  readonly #db: Db;
  readonly #sessions: SessionsRepository;
  readonly #runs: RunsRepository;
  readonly #samples: SamplesRepository;
  readonly #uploads: ImportUploads;

  /** `uploadsDir` keeps the Sessions page's uploads while they arrive (<dataDir>/tmp/imports). */
  constructor(options: { db: Db; sessions: SessionsRepository; uploadsDir: string; abandonUploadAfterMs?: number }) {
    this.#db = options.db;
    this.#sessions = options.sessions;
    this.#runs = new RunsRepository(options.db);
    this.#samples = new SamplesRepository(options.db);
    this.#uploads = new ImportUploads({ dir: options.uploadsDir, ...(options.abandonUploadAfterMs !== undefined ? { abandonAfterMs: options.abandonUploadAfterMs } : {}) });
  }

  /** A file on disk, streamed line by line (the CLI's path, and the end of the page's upload). */
  async importFile(path: string, request: ImportRequest, now = new Date()): Promise<Session> {
    const handle = await open(path, 'r');
    try {
      refuseOverCap(request.fileName, (await handle.stat()).size);
      const result = await readOrExplain(async () => {
        const abRun = request.abReport !== undefined ? abRunOf(importText('ab', request.abReport.fileName, request.abReport.text)) : request.reportPath === undefined ? undefined : abRunOf(await readReport(request.reportPath));
        const reader = new ImportReader(request.format, request.fileName, { abRun });
        const end = { cutShort: false };
        for await (const line of linesOf(handle, MAX_LINE_CHARS, request.fileName, end)) reader.line(line);
        return reader.finish(end);
      });
      return this.store(result, request, now);
    } finally {
      await handle.close();
    }
  }

  /**
   * The Sessions page's upload of a file of `size` bytes, refused at once over the cap; its bytes
   * then come in pieces of at most `chunkBytes` (`uploadChunk`) and `finishUpload` imports it.
   */
  beginUpload(request: ImportRequest, size: number): { uploadId: string; chunkBytes: number } {
    refuseOverCap(request.fileName, size);
    return { ...this.#uploads.begin(request, size), chunkBytes: IMPORT_CHUNK_BYTES };
  }

  /** The upload's next bytes, base64 (exact bytes, whatever the file's encoding; see IMPORT_CHUNK_BYTES). */
  uploadChunk(uploadId: string, offset: number, base64: string): { received: number } {
    return this.#uploads.append(uploadId, offset, Buffer.from(base64, 'base64'));
  }

  /** Imports the complete upload as `importFile` does; its temporary file is removed whatever happens. */
  async finishUpload(uploadId: string, now = new Date()): Promise<Session> {
    const upload = this.#uploads.complete(uploadId);
    try {
      return await this.importFile(upload.path, upload.request, now);
    } finally {
      await rm(upload.path, { force: true });
    }
  }

  cancelUpload(uploadId: string): { cancelled: boolean } {
    return { cancelled: this.#uploads.cancel(uploadId) };
  }

  /** Drops an upload still arriving (the process is closing). */
  close(): void {
    this.#uploads.close();
  }

  /** Stores one imported result: all of it, or nothing. */
  store(result: ImportedResult, naming: Omit<ImportNaming, 'importedAt'>, now = new Date()): Session {
    const record = importedSessionRecord(result, { ...naming, importedAt: now });
    const store = this.#db.transaction(() => {
      const session = this.#sessions.create({ name: record.name, tags: record.tags, config: record.config, status: 'completed' }, now);
      const runId = this.#runs.create({ sessionId: session.id, ordinal: 1, templateId: record.run.templateId, variant: record.run.variant, step: record.run.step });
      this.#runs.markStarted(runId, record.startedAt ?? now);
      if (result.kind === 'per-request') {
        for (let start = 0; start < result.seconds.length; start += BATCH) this.#samples.append(runId, result.seconds.slice(start, start + BATCH));
        this.#runs.finish(runId, 'completed', summarizeRun(result.seconds, summaryRulesOf(undefined, record.run.step)), record.endedAt ?? now);
      } else {
        this.#runs.finish(runId, 'completed', { summary: result.summary, histogram: null }, record.endedAt ?? now);
      }
      this.#sessions.setStatus(session.id, 'completed', { ...(record.startedAt ? { started: record.startedAt } : {}), ended: record.endedAt ?? now });
      return session.id;
    });
    return this.#sessions.get(store());
  }
}

/** ab's text report beside its -g file: small, read whole through the ab importer. */
async function readReport(path: string): Promise<ImportedResult> {
  const handle = await open(path, 'r').catch((error: NodeJS.ErrnoException) => {
    throw new ApiError('invalid_args', `cannot read the report ${path}: ${error.code ?? error.message}`);
  });
  try {
    const reader = new ImportReader('ab', basename(path));
    for await (const line of linesOf(handle, MAX_LINE_CHARS, basename(path), { cutShort: false })) reader.line(line);
    return reader.finish();
  } finally {
    await handle.close();
  }
}

function refuseOverCap(fileName: string, size: number): void {
  if (size > MAX_IMPORT_FILE_BYTES) throw new ApiError('too_large', `${fileName} is ${Math.round(size / 1024 / 1024)} MiB: imports are limited to ${MAX_IMPORT_FILE_BYTES / 1024 / 1024} MiB`);
}

async function readOrExplain(read: () => Promise<ImportedResult>): Promise<ImportedResult> {
  try {
    return await read();
  } catch (error) {
    throw error instanceof ImportError ? new ApiError('invalid_args', error.message) : error;
  }
}

/**
 * A file's lines as UTF-8 text, read in chunks; a line longer than `maxChars` bytes is refused as
 * soon as it passes the limit, so a hostile file without line breaks is never held whole.
 */
async function* linesOf(handle: FileHandle, maxChars: number, fileName: string, end: { cutShort: boolean }): AsyncGenerator<string> {
  const chunk = Buffer.alloc(1024 * 1024);
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let lineNumber = 1;
  for (;;) {
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
    if (bytesRead === 0) break;
    let from = 0;
    for (let at = chunk.indexOf(10, 0); at !== -1 && at < bytesRead; at = chunk.indexOf(10, from)) {
      pending.push(chunk.subarray(from, at));
      yield Buffer.concat(pending).toString('utf8');
      lineNumber++;
      pending = [];
      pendingBytes = 0;
      from = at + 1;
    }
    if (from < bytesRead) {
      pending.push(Buffer.from(chunk.subarray(from, bytesRead)));
      pendingBytes += bytesRead - from;
      if (pendingBytes > maxChars) throw new ImportError(lineNumber, `${fileName}:${lineNumber}: the line is longer than ${maxChars / 1024 / 1024} MiB: this is no results file of that format`);
    }
  }
  if (pendingBytes > 0) {
    const last = Buffer.concat(pending).toString('utf8');
    // A last line without its line break: the reader refuses a per-request file cut there.
    end.cutShort = last.trim() !== '';
    yield last;
  }
}
