// What every transport's exec shares: collecting stdout/stderr as text (multi-byte characters
// split across chunks survive), streaming it to the caller, and a timeout and cancel that kill the
// command and settle the promise exactly once.

import { StringDecoder } from 'node:string_decoder';
import { ApiError } from '../../../app/common/errors.ts';
import type { ExecOptions, ExecResult } from './host-transport.ts';

interface Readable {
  on(event: 'data', listener: (chunk: Buffer) => void): unknown;
}

export interface SupervisedExec {
  /** The command ended with this exit code (null: killed by a signal). */
  exited(code: number | null): void;
  /** The command could not be run at all. */
  failed(error: ApiError): void;
}

export function superviseExec(
  streams: { stdout: Readable; stderr: Readable },
  options: ExecOptions,
  kill: () => void,
  settle: { resolve: (result: ExecResult) => void; reject: (error: ApiError) => void },
): SupervisedExec {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const decoders = { stdout: new StringDecoder('utf8'), stderr: new StringDecoder('utf8') };
  const text = { stdout: '', stderr: '' };
  let done = false;

  const finish = (outcome: () => void) => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
    outcome();
  };
  const stop = (code: 'timeout' | 'cancelled', message: string) =>
    finish(() => {
      kill();
      settle.reject(new ApiError(code, message));
    });
  const timer = setTimeout(() => stop('timeout', `the command did not finish within ${Math.round(timeoutMs / 1000)} s`), timeoutMs);
  const onAbort = () => stop('cancelled', 'cancelled');
  if (options.signal?.aborted) queueMicrotask(onAbort);
  else options.signal?.addEventListener('abort', onAbort, { once: true });

  const collect = (name: 'stdout' | 'stderr', listener: ((chunk: string) => void) | undefined) => (chunk: Buffer) => {
    const decoded = decoders[name].write(chunk);
    text[name] += decoded;
    if (decoded) listener?.(decoded);
  };
  streams.stdout.on('data', collect('stdout', options.onStdout));
  streams.stderr.on('data', collect('stderr', options.onStderr));

  return {
    exited: (code) =>
      finish(() => {
        text.stdout += decoders.stdout.end();
        text.stderr += decoders.stderr.end();
        settle.resolve({ code, stdout: text.stdout, stderr: text.stderr });
      }),
    failed: (error) => finish(() => settle.reject(error)),
  };
}
