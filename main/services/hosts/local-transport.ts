// HostTransport on this machine ("This machine"), over child_process, so Benchlab works without
// remote hosts. The interactive shell gets a real PTY from util-linux `script` (no native module).

import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { userInfo } from 'node:os';
import { ApiError } from '../../../app/errors.ts';
import { shellQuote } from '../../../app/shell-quote.ts';
import type { ExecOptions, ExecResult, HostTransport, ShellSession } from './host-transport.ts';

class LocalShell extends EventEmitter<{ data: [Buffer]; exit: [number | null] }> implements ShellSession {
  readonly #child: ChildProcessWithoutNullStreams;
  constructor(child: ChildProcessWithoutNullStreams) {
    super();
    this.#child = child;
    child.stdout.on('data', (data: Buffer) => this.emit('data', data));
    child.stderr.on('data', (data: Buffer) => this.emit('data', data));
    child.on('exit', (code) => this.emit('exit', code));
  }
  write(data: string | Buffer): void {
    if (this.#child.stdin.writable) this.#child.stdin.write(data);
  }
  resize(cols: number, rows: number): void {
    // `script` does not forward window size changes; tell the shell's tty directly.
    this.write(` stty cols ${Math.floor(cols)} rows ${Math.floor(rows)} 2>/dev/null\r`);
  }
  pause(): void {
    this.#child.stdout.pause();
  }
  resume(): void {
    this.#child.stdout.resume();
  }
  close(): void {
    this.#child.kill('SIGHUP');
  }
}

export class LocalTransport implements HostTransport {
  readonly kind = 'local';
  readonly user = userInfo().username;

  exec(command: string, options: ExecOptions = {}): Promise<ExecResult> {
    const timeoutMs = options.timeoutMs ?? 60_000;
    return new Promise((resolve, reject) => {
      // Own process group, so a timeout or cancel kills the command's children too.
      const child = spawn('/bin/sh', ['-c', command], { detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
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
          try {
            process.kill(-child.pid!, 'SIGKILL');
          } catch {
            // already gone
          }
          reject(new ApiError(code, message));
        });
      const timer = setTimeout(() => stop('timeout', `the command did not finish within ${Math.round(timeoutMs / 1000)} s`), timeoutMs);
      const onAbort = () => stop('cancelled', 'cancelled');
      options.signal?.addEventListener('abort', onAbort, { once: true });
      child.stdout.on('data', (data: Buffer) => {
        stdout += data.toString();
        options.onStdout?.(data.toString());
      });
      child.stderr.on('data', (data: Buffer) => {
        stderr += data.toString();
        options.onStderr?.(data.toString());
      });
      child.on('error', (error) => finish(() => reject(new ApiError('unavailable', `cannot run /bin/sh: ${error.message}`))));
      child.on('close', (code) => finish(() => resolve({ code, stdout, stderr })));
      child.stdin.on('error', () => undefined); // the command may exit before reading stdin
      child.stdin.end(options.stdin ?? undefined);
    });
  }

  async openShell(size: { cols: number; rows: number }): Promise<ShellSession> {
    const shell = process.env.SHELL || '/bin/bash';
    const child = spawn('script', ['-qfc', `stty cols ${size.cols} rows ${size.rows}; exec ${shellQuote(shell)} -i`, '/dev/null'], {
      env: { ...process.env, TERM: 'xterm-256color' },
    });
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', (error) => reject(new ApiError('unavailable', `cannot open a local shell (util-linux "script" needed): ${error.message}`)));
    });
    return new LocalShell(child);
  }

  close(): void {
    // Nothing held open: each exec is its own process.
  }
}
