// Cancelling remote work without killing remote shells.

import { ApiError } from '../../../app/common/errors.ts';

/**
 * The work's result, or `cancelled` as soon as the signal aborts. The remote command is left to
 * end by itself rather than killed: killing a login shell while its rc files run can leave their
 * locks behind (pyenv's rehash lock stalls every later login for a minute), and each script here
 * ends soon anyway, the readiness loop as soon as the stopped server's group is gone.
 */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) {
    work.catch(() => undefined);
    return Promise.reject(new ApiError('cancelled', 'cancelled'));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new ApiError('cancelled', 'cancelled'));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
