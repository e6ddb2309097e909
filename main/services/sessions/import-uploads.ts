// The results files the Sessions page uploads in pieces (a request crosses the transport whole and
// the transport takes at most 1 MiB, while per-request files run to hundreds of MB): each upload
// is a temporary file under <dataDir>/tmp/imports/, readable by this user only, that takes the
// file's bytes in order until it is complete and handed over to be imported. One upload takes
// bytes at a time per process; one that gets no piece for a minute is dropped with its file, and
// at start the files of processes that no longer run are removed (several Benchlab processes share
// a data dir, so another live process's upload is left alone).

import { randomUUID } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readdirSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { ApiError, messageOf } from '../../../app/common/errors.ts';
import type { ImportFormat } from '../../../app/sessions/importers/index.ts';
import { isOwnerAlive, processOwner } from '../store/process-owner.ts';

/** What the user asked to import: the file's format and name, and the session's name and tags. */
export interface ImportRequest {
  format: ImportFormat;
  fileName: string;
  name?: string | undefined;
  tags?: string[] | undefined;
  /** Where ab's text report of the run lies, read beside its -g file for its elapsed time (the CLI's --report). */
  reportPath?: string | undefined;
  /** ab's text report itself, as the Sessions page sends it beside the -g file it uploads. */
  abReport?: { fileName: string; text: string } | undefined;
}

/** How long an upload waits for its next piece before it is dropped. */
export const ABANDON_AFTER_MS = 60_000;

interface Upload {
  id: string;
  request: ImportRequest;
  size: number;
  received: number;
  path: string;
  fd: number;
  idle: NodeJS.Timeout;
}

/** A complete upload handed over: its file is the caller's to read and remove. */
export interface CompleteUpload {
  request: ImportRequest;
  path: string;
}

const percentReceived = (upload: Upload) => (upload.size === 0 ? 100 : Math.floor((upload.received / upload.size) * 100));
const gone = () => new ApiError('not_found', 'this upload is gone (finished, cancelled, or dropped after a minute without data): choose the file again');

export class ImportUploads {
  readonly #dir: string;
  readonly #abandonAfterMs: number;
  #current: Upload | null = null;

  constructor(options: { dir: string; abandonAfterMs?: number }) {
    this.#dir = options.dir;
    this.#abandonAfterMs = options.abandonAfterMs ?? ABANDON_AFTER_MS;
    this.#removeLeftovers();
  }

  /** Opens an upload of `size` bytes; refused while another one is taking bytes. */
  begin(request: ImportRequest, size: number): { uploadId: string } {
    const busy = this.#current;
    if (busy) {
      throw new ApiError('conflict', `another import is under way (${busy.request.fileName}, ${percentReceived(busy)} % received): import this file when it ends`);
    }
    mkdirSync(this.#dir, { recursive: true, mode: 0o700 });
    const id = randomUUID();
    // The owner in the name tells a later process whether the upload's process still runs.
    const path = join(this.#dir, `${processOwner().replace(':', '+')}.${id}.part`);
    const fd = openSync(path, 'wx', 0o600);
    const idle = setTimeout(() => this.cancel(id), this.#abandonAfterMs);
    // An upload left behind must not keep a closing process alive.
    idle.unref();
    this.#current = { id, request, size, received: 0, path, fd, idle };
    return { uploadId: id };
  }

  /** Appends the bytes that start at `offset`: the next ones, in order, within the declared size. */
  append(uploadId: string, offset: number, bytes: Buffer): { received: number } {
    const upload = this.#find(uploadId);
    if (offset !== upload.received) throw new ApiError('conflict', `${upload.request.fileName}: a piece at byte ${offset} arrived where byte ${upload.received} was due: pieces go in order`);
    if (upload.received + bytes.length > upload.size) {
      throw new ApiError('invalid_args', `${upload.request.fileName}: a piece ends at byte ${upload.received + bytes.length}, past the ${upload.size} bytes the file was said to have`);
    }
    try {
      for (let written = 0; written < bytes.length; ) written += writeSync(upload.fd, bytes, written);
    } catch (error) {
      this.cancel(uploadId);
      throw new ApiError('unavailable', `${upload.request.fileName}: could not keep the upload in ${this.#dir} (${messageOf(error)}): free some space and import again`);
    }
    upload.received += bytes.length;
    upload.idle.refresh();
    return { received: upload.received };
  }

  /** Ends taking bytes: the complete file for the caller to import and remove. An incomplete one is dropped. */
  complete(uploadId: string): CompleteUpload {
    const upload = this.#find(uploadId);
    this.#release(upload);
    if (upload.received !== upload.size) {
      rmSync(upload.path, { force: true });
      throw new ApiError('invalid_args', `${upload.request.fileName}: the upload stopped at ${percentReceived(upload)} % of the file: choose the file again`);
    }
    return { request: upload.request, path: upload.path };
  }

  /** Drops an upload and its file; false when there was none by that id (already finished or dropped). */
  cancel(uploadId: string): boolean {
    const upload = this.#current;
    if (!upload || upload.id !== uploadId) return false;
    this.#release(upload);
    rmSync(upload.path, { force: true });
    return true;
  }

  /** Drops the upload in progress, if any (the process is closing). */
  close(): void {
    if (this.#current) this.cancel(this.#current.id);
  }

  #find(uploadId: string): Upload {
    if (this.#current?.id !== uploadId) throw gone();
    return this.#current;
  }

  #release(upload: Upload): void {
    clearTimeout(upload.idle);
    closeSync(upload.fd);
    this.#current = null;
  }

  /** Files of uploads whose process has ended (a crash, a kill); anything else in the folder is no upload of ours. */
  #removeLeftovers(): void {
    let names: string[];
    try {
      names = readdirSync(this.#dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // no folder yet: nothing left over
      throw error;
    }
    for (const name of names) {
      const owner = /^(\d+)\+([^.]+)\.[0-9a-f-]+\.part$/.exec(name);
      if (owner && isOwnerAlive(`${owner[1]}:${owner[2]}`)) continue;
      rmSync(join(this.#dir, name), { recursive: true, force: true });
    }
  }
}
