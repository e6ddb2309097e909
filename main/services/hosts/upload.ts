// The one way files reach a host, shared by both transports: the bytes go to the stdin of a small
// sh command that writes a temporary file, checks its size, sets its mode and renames it into
// place, so an upload cut short (cancel, lost link) never leaves a truncated file behind.

import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { posix } from 'node:path';
import { Readable, type Writable } from 'node:stream';
import { ApiError } from '../../../app/common/errors.ts';
import { shellQuote } from '../../../app/common/shell-quote.ts';
import type { UploadOptions } from './host-transport.ts';

export interface UploadSource {
  size: number;
  open(): Readable;
}

export async function uploadSource(source: string | Buffer): Promise<UploadSource> {
  if (Buffer.isBuffer(source)) return { size: source.length, open: () => Readable.from([source]) };
  const info = await stat(source);
  return { size: info.size, open: () => createReadStream(source) };
}

/** The receiving command: reads exactly `size` bytes from stdin into remotePath. */
export function uploadCommand(remotePath: string, size: number, mode = 0o644): string {
  const target = shellQuote(remotePath);
  return [
    'umask 022',
    `mkdir -p ${shellQuote(posix.dirname(remotePath))} || exit 1`,
    `t=${target}.benchlab-upload.$$`,
    `if cat > "$t" && [ "$(( $(wc -c < "$t") ))" -eq ${size} ] && chmod ${mode.toString(8)} "$t" && mv -f "$t" ${target}; then exit 0; fi`,
    'rm -f "$t"',
    `echo "the upload to ${remotePath.replace(/["`$\\]/g, '')} did not complete" >&2`,
    'exit 1',
  ].join('\n');
}

/**
 * Pipes the source into the receiving command's stdin, reporting progress. Cancel (or a read
 * error) ends stdin early: the command then finds its temporary file too short and removes it.
 */
export function pump(source: UploadSource, stdin: Writable, options: UploadOptions): void {
  const stream = source.open();
  let sent = 0;
  const cut = () => {
    stream.unpipe(stdin);
    stream.destroy();
    stdin.end();
  };
  options.signal?.addEventListener('abort', cut, { once: true });
  stream.on('data', (chunk: Buffer) => {
    sent += chunk.length;
    options.onProgress?.(sent);
  });
  stream.on('error', cut);
  stream.on('close', () => options.signal?.removeEventListener('abort', cut));
  stdin.on('error', () => stream.destroy());
  stream.pipe(stdin);
}

export function uploadFailed(remotePath: string, options: UploadOptions, code: number | null, stderr: string): ApiError {
  if (options.signal?.aborted) return new ApiError('cancelled', 'cancelled');
  const said = stderr.trim().split('\n').slice(-2).join(' ');
  return new ApiError('unavailable', `cannot upload ${remotePath}${said ? `: ${said}` : ` (exit code ${code})`}`);
}
