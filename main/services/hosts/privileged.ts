// Running a command as root on a host: directly when the login user is root, otherwise through
// `sudo -S -p '' --` with the password written to stdin — never in argv, so never in
// /proc/*/cmdline, logs or SQLite.

import { ApiError } from '../../../app/common/errors.ts';
import { shellQuote } from '../../../app/common/shell-quote.ts';
import type { ExecOptions, ExecResult, HostTransport } from './host-transport.ts';

export interface PrivilegedOptions extends ExecOptions {
  /** The sudo password; kept in memory only by the caller. */
  sudoPassword?: string | undefined;
}

const WRONG_PASSWORD = /incorrect password|Sorry, try again|no password was provided|a password is required/i;
const NOT_ALLOWED = /is not in the sudoers file|is not allowed to execute|may not run sudo/i;

export async function runPrivileged(transport: HostTransport, command: string, options: PrivilegedOptions = {}): Promise<ExecResult> {
  const { sudoPassword, ...execOptions } = options;
  if (transport.user === 'root') return transport.exec(command, execOptions);

  // -S reads the password from stdin, -p '' keeps the prompt out of stderr, -k ignores a cached
  // credential so a wrong password is always caught. Without a password, -n fails at once rather
  // than wait for a prompt nobody can answer.
  const sudo = sudoPassword === undefined ? "sudo -n -p '' --" : "sudo -k -S -p '' --";
  const stdin = sudoPassword === undefined ? execOptions.stdin : `${sudoPassword}\n${execOptions.stdin ?? ''}`;
  const result = await transport.exec(`${sudo} sh -c ${shellQuote(command)}`, {
    timeoutMs: 60_000,
    ...execOptions,
    ...(stdin !== undefined ? { stdin } : {}),
  });
  if (result.code !== 0) {
    if (/sudo: .*command not found|sudo: not found/.test(result.stderr)) {
      throw new ApiError('unavailable', `sudo is not installed on this host; log in as root or install sudo`);
    }
    if (NOT_ALLOWED.test(result.stderr)) throw new ApiError('auth_failed', `user "${transport.user}" may not use sudo on this host`);
    if (WRONG_PASSWORD.test(result.stderr)) {
      throw new ApiError(
        sudoPassword === undefined ? 'password_required' : 'auth_failed',
        sudoPassword === undefined ? `sudo needs the password of "${transport.user}"` : `sudo: wrong password for "${transport.user}"`,
      );
    }
  }
  return result;
}
