// The one interface every host is driven through, whether over SSH or on this machine
// ("local"): run a command, open an interactive shell, close. Services above never see ssh2.

import type { EventEmitter } from 'node:events';

export interface ExecOptions {
  /** Written to the command's stdin, then stdin is closed (how sudo gets its password). */
  stdin?: string;
  /** Kill the command and reject with `timeout` after this long. Default 60 s. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Called with output as it arrives (for the log terminal); the result still holds all of it. */
  onStdout?: (chunk: string) => void;
  onStderr?: (chunk: string) => void;
}

export interface ExecResult {
  /** Exit code, or null when the command died from a signal. */
  code: number | null;
  stdout: string;
  stderr: string;
}

/** An interactive shell on a PTY. `data` events carry terminal output bytes. */
export interface ShellSession extends EventEmitter<{ data: [Buffer]; exit: [number | null] }> {
  write(data: string | Buffer): void;
  resize(cols: number, rows: number): void;
  /** Stop reading from the remote side (backpressure) until resume(). */
  pause(): void;
  resume(): void;
  close(): void;
}

export interface UploadOptions {
  /** File mode of the result, e.g. 0o644. */
  mode?: number;
  signal?: AbortSignal;
  /** Called with the bytes sent so far. */
  onProgress?: (sentBytes: number) => void;
}

/**
 * A long-running command with a live stdin (the load agent: its heartbeat goes in, its lines come
 * out). `exited` resolves when the command ends or the link carrying it closes.
 */
export interface HostProcess {
  write(data: string): void;
  /** Closes the command's stdin. */
  end(): void;
  /** Best effort: KILL the command (over SSH, a signal request; some servers ignore it). */
  kill(): void;
  readonly exited: Promise<{ code: number | null }>;
}

export interface StartOptions {
  onStdout: (chunk: string) => void;
  onStderr?: (chunk: string) => void;
}

export interface HostTransport {
  readonly kind: 'ssh' | 'local';
  /** The login user on the host (decides whether sudo is needed). */
  readonly user: string;
  exec(command: string, options?: ExecOptions): Promise<ExecResult>;
  openShell(size: { cols: number; rows: number }): Promise<ShellSession>;
  /**
   * Writes a local file (by path) or bytes to remotePath, creating its folder: through a temporary
   * file renamed into place once complete, so a cut upload never leaves a truncated file.
   */
  upload(source: string | Buffer, remotePath: string, options?: UploadOptions): Promise<void>;
  /** Starts a command that keeps running, its stdin open for writing. */
  start(command: string, options: StartOptions): Promise<HostProcess>;
  close(): void;
}
