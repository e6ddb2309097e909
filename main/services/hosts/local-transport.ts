// HostTransport on this machine ("This machine"), over child_process, so Benchlab works without
// remote hosts. The interactive shell gets a real PTY from util-linux `script` (no native module),
// so it is Linux-only; resizing sets the pty's size through /proc.

import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { readFileSync, readlinkSync } from 'node:fs';
import { userInfo } from 'node:os';
import { StringDecoder } from 'node:string_decoder';
import { ApiError } from '../../../app/common/errors.ts';
import { shellQuote } from '../../../app/common/shell-quote.ts';
import type { ExecOptions, ExecResult, HostProcess, HostTransport, ShellSession, StartOptions, UploadOptions } from './host-transport.ts';
import { superviseExec } from './exec-supervisor.ts';
import { pump, uploadCommand, uploadFailed, uploadSource } from './upload.ts';

/** Pids of a process's direct children (Linux /proc), e.g. the shell under `script`. */
function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // already gone
  }
}

class LocalShell extends EventEmitter<{ data: [Buffer]; exit: [number | null] }> implements ShellSession {
  readonly #child: ChildProcessWithoutNullStreams;
  constructor(child: ChildProcessWithoutNullStreams) {
    super();
    this.#child = child;
    child.stdout.on('data', (data: Buffer) => this.emit('data', data));
    child.stderr.on('data', (data: Buffer) => this.emit('data', data));
    // 'close' (not 'exit') so every byte of output is delivered before the exit.
    child.on('close', (code) => this.emit('exit', code));
  }
  write(data: string | Buffer): void {
    if (this.#child.stdin.writable) this.#child.stdin.write(data);
  }
  resize(cols: number, rows: number): void {
    // `script` does not forward size changes: set the size on the shell's pty from outside, and
    // the kernel tells the foreground program (SIGWINCH), as a terminal emulator would.
    const shellPid = this.#child.pid === undefined ? undefined : childPids(this.#child.pid)[0];
    if (shellPid === undefined) return;
    let pty: string;
    try {
      pty = readlinkSync(`/proc/${shellPid}/fd/0`);
    } catch {
      return;
    }
    if (!pty.startsWith('/dev/pts/')) return;
    spawn('stty', ['-F', pty, 'cols', String(Math.floor(cols)), 'rows', String(Math.floor(rows))], { stdio: 'ignore' }).on('error', () => undefined);
  }
  pause(): void {
    this.#child.stdout.pause();
  }
  resume(): void {
    this.#child.stdout.resume();
  }
  close(): void {
    // `script` ignores SIGHUP: hang up the shell under it (as closing a terminal does), then make sure.
    const pid = this.#child.pid;
    if (pid === undefined || this.#child.exitCode !== null) return;
    for (const shell of childPids(pid)) signal(shell, 'SIGHUP');
    const force = setTimeout(() => {
      for (const shell of childPids(pid)) signal(shell, 'SIGKILL');
      signal(pid, 'SIGKILL');
    }, 2000);
    force.unref();
    this.#child.once('close', () => clearTimeout(force));
  }
}

export class LocalTransport implements HostTransport {
  readonly kind = 'local';
  readonly user = userInfo().username;

  exec(command: string, options: ExecOptions = {}): Promise<ExecResult> {
    return new Promise((resolve, reject) => {
      // Own process group, so a timeout or cancel kills the command's children too.
      const child = spawn('/bin/sh', ['-c', command], { detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
      const run = superviseExec(child, options, () => signal(-child.pid!, 'SIGKILL'), { resolve, reject });
      child.on('error', (error) => run.failed(new ApiError('unavailable', `cannot run /bin/sh: ${error.message}`)));
      child.on('close', (code) => run.exited(code));
      child.stdin.on('error', () => undefined); // the command may exit before reading stdin
      child.stdin.end(options.stdin ?? undefined);
    });
  }

  async openShell(size: { cols: number; rows: number }): Promise<ShellSession> {
    const shell = process.env.SHELL || '/bin/bash';
    const child = spawn('script', ['-qefc', `stty cols ${size.cols} rows ${size.rows}; exec ${shellQuote(shell)} -i`, '/dev/null'], {
      env: { ...process.env, TERM: 'xterm-256color' },
    });
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', (error) => reject(new ApiError('unavailable', `cannot open a local shell (util-linux "script" needed): ${error.message}`)));
    });
    return new LocalShell(child);
  }

  async upload(source: string | Buffer, remotePath: string, options: UploadOptions = {}): Promise<void> {
    const input = await uploadSource(source);
    const child = spawn('/bin/sh', ['-c', uploadCommand(remotePath, input.size, options.mode)], { stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
    const closed = new Promise<number | null>((resolve, reject) => {
      child.on('error', (error) => reject(new ApiError('unavailable', `cannot run /bin/sh: ${error.message}`)));
      child.on('close', resolve);
    });
    pump(input, child.stdin, options);
    const code = await closed;
    if (code !== 0 || options.signal?.aborted) throw uploadFailed(remotePath, options, code, stderr);
  }

  start(command: string, options: StartOptions): Promise<HostProcess> {
    // Own process group, so kill() takes the command's children too.
    const child = spawn('/bin/sh', ['-c', command], { detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    const stdout = new StringDecoder('utf8');
    const stderr = new StringDecoder('utf8');
    child.stdout.on('data', (data: Buffer) => options.onStdout(stdout.write(data)));
    child.stderr.on('data', (data: Buffer) => options.onStderr?.(stderr.write(data)));
    child.stdin.on('error', () => undefined); // the command may exit before reading stdin
    const exited = new Promise<{ code: number | null }>((resolve) => {
      child.on('close', (code) => resolve({ code }));
      child.on('error', () => resolve({ code: null }));
    });
    return new Promise((resolve, reject) => {
      child.once('error', (error) => reject(new ApiError('unavailable', `cannot run /bin/sh: ${error.message}`)));
      child.once('spawn', () =>
        resolve({
          write: (data) => void (child.stdin.writable && child.stdin.write(data)),
          end: () => child.stdin.end(),
          kill: () => signal(-child.pid!, 'SIGKILL'),
          exited,
        }),
      );
    });
  }

  close(): void {
    // Nothing held open: each exec is its own process.
  }
}
