// HostTransport over SSH (ssh2). Owns: checking the host key before authentication (ssh2's
// callback form: a returned Promise would count as "accept"), credentials (agent, key file with
// passphrase, password), jump hosts (each hop verified), keepalive, and clear errors.

import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { EventEmitter } from 'node:events';
import type { Duplex } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { Client, type ClientChannel, type ConnectConfig } from 'ssh2';
import { ApiError } from '../../../app/common/errors.ts';
import type { ExecOptions, ExecResult, HostProcess, HostTransport, ShellSession, StartOptions, UploadOptions } from './host-transport.ts';
import { superviseExec } from './exec-supervisor.ts';
import { pump, uploadCommand, uploadFailed, uploadSource } from './upload.ts';
import { judgeHostKey, sha256Fingerprint } from './host-key.ts';

export interface SshTarget {
  /** How the user calls this host, for messages. */
  label: string;
  address: string;
  port: number;
  user: string;
  auth: 'agent' | 'key' | 'password';
  keyPath?: string | undefined;
  pinnedFingerprint: string | null;
  /** Reach this host through another one (ProxyJump). */
  jump?: SshTarget | undefined;
}

export interface SshSecrets {
  password?: string | undefined;
  passphrase?: string | undefined;
}

export interface SshOptions {
  /** Time allowed for TCP connect + handshake + authentication. */
  readyTimeoutMs?: number;
  /** Keepalive probe interval; the link is declared dead after keepaliveCountMax missed probes. */
  keepaliveIntervalMs?: number;
  keepaliveCountMax?: number;
  /** Jump-host secrets, by jump label. */
  jumpSecrets?: Record<string, SshSecrets>;
}

const DEFAULTS = { readyTimeoutMs: 8000, keepaliveIntervalMs: 5000, keepaliveCountMax: 3 } as const;

function expandHome(path: string): string {
  return path === '~' || path.startsWith('~/') ? homedir() + path.slice(1) : path;
}

async function authConfig(target: SshTarget, secrets: SshSecrets): Promise<Partial<ConnectConfig>> {
  if (target.auth === 'password') {
    if (!secrets.password) throw new ApiError('password_required', `${target.label}: enter the password for ${target.user}`);
    return { password: secrets.password };
  }
  if (target.auth === 'agent') {
    const agent = process.env.SSH_AUTH_SOCK;
    if (!agent) throw new ApiError('auth_failed', `${target.label}: no ssh-agent is running here (SSH_AUTH_SOCK is not set)`);
    return { agent };
  }
  if (!target.keyPath) throw new ApiError('invalid_args', `${target.label}: keyPath: is required for key authentication`);
  let privateKey: Buffer;
  try {
    privateKey = await readFile(expandHome(target.keyPath));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ApiError(
      'invalid_args',
      `${target.label}: cannot read key file ${target.keyPath}${code === 'ENOENT' ? ': no such file' : code === 'EACCES' ? ': permission denied' : ''}`,
    );
  }
  if (!/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(privateKey.toString('latin1', 0, Math.min(privateKey.length, 200)))) {
    throw new ApiError('invalid_args', `${target.label}: ${target.keyPath} is not a private key file (expected a PEM/OpenSSH "BEGIN … PRIVATE KEY" block)`);
  }
  return { privateKey, ...(secrets.passphrase ? { passphrase: secrets.passphrase } : {}) };
}

/** Turns whatever ssh2 or the socket threw into a message a person can act on. */
function explain(target: SshTarget, error: Error & { code?: string; level?: string }, timeoutMs: number): ApiError {
  const where = `${target.label} (${target.address}:${target.port})`;
  const message = error.message ?? String(error);
  if (/encrypted private openssh key detected, but no passphrase|no passphrase given/i.test(message)) {
    return new ApiError('passphrase_required', `${target.label}: the key ${target.keyPath} is encrypted: enter its passphrase`);
  }
  if (/cannot parse privatekey|bad passphrase|failed to decrypt|integrity check failed/i.test(message)) {
    return new ApiError('auth_failed', `${target.label}: cannot use the key ${target.keyPath}: wrong passphrase or unsupported key (${message})`);
  }
  if (error.level === 'client-authentication') {
    return new ApiError('auth_failed', `${where}: authentication failed for user "${target.user}" (${target.auth} refused)`);
  }
  switch (error.code) {
    case 'ECONNREFUSED':
      return new ApiError('unreachable', `${where}: connection refused — is sshd running, and is ${target.port} the right port?`);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new ApiError('unreachable', `${target.label}: cannot resolve the host name "${target.address}"`);
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return new ApiError('unreachable', `${where}: no route to host`);
    case 'ECONNRESET':
      return new ApiError('unreachable', `${where}: the connection was reset during the handshake`);
  }
  if (/timed out while waiting for handshake/i.test(message) || error.level === 'client-timeout') {
    return new ApiError('unreachable', `${where}: no answer within ${Math.round(timeoutMs / 1000)} s — host down, or a firewall drops the traffic`);
  }
  return new ApiError('unreachable', `${where}: ${message}`);
}

/** Explains a host key that is not the pinned one; null when it is trusted. */
function hostKeyProblem(target: SshTarget, presented: string): ApiError | null {
  const verdict = judgeHostKey(target.pinnedFingerprint, presented);
  if (verdict === 'unknown') {
    return new ApiError(
      'host_key_unknown',
      `${target.label}: first connection — the host key fingerprint is ${presented}. Check it against the host (ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub) and accept it to continue.`,
      { fingerprint: presented, host: target.label },
    );
  }
  if (verdict === 'changed') {
    return new ApiError(
      'host_key_changed',
      `${target.label}: the host key has CHANGED (pinned ${target.pinnedFingerprint}, now ${presented}). Nothing was sent. If the host was reinstalled, replace the pinned key; otherwise someone may be intercepting the connection.`,
      { fingerprint: presented, pinned: target.pinnedFingerprint ?? '', host: target.label },
    );
  }
  return null;
}

/** Opens an authenticated ssh2 Client to target, over `sock` when given (a jump host's channel). */
async function openClient(target: SshTarget, secrets: SshSecrets, options: Required<Omit<SshOptions, 'jumpSecrets'>>, sock?: Duplex): Promise<Client> {
  const auth = await authConfig(target, secrets);
  return new Promise<Client>((resolve, reject) => {
    const client = new Client();
    let keyProblem: ApiError | null = null;
    let settled = false;
    const fail = (error: ApiError) => {
      if (settled) return;
      settled = true;
      client.end();
      reject(error);
    };
    client.once('ready', () => {
      settled = true;
      resolve(client);
    });
    client.on('error', (error: Error & { level?: string }) => fail(keyProblem ?? explain(target, error, options.readyTimeoutMs)));
    client.once('close', () => fail(keyProblem ?? new ApiError('unreachable', `${target.label}: the connection closed during the handshake`)));
    const config: ConnectConfig = {
      host: target.address,
      port: target.port,
      username: target.user,
      ...(sock ? { sock } : {}),
      ...auth,
      readyTimeout: options.readyTimeoutMs,
      keepaliveInterval: options.keepaliveIntervalMs,
      keepaliveCountMax: options.keepaliveCountMax,
      tryKeyboard: false,
      // Callback form on purpose: ssh2 treats any non-undefined return value (a Promise too) as the
      // verdict, so this returns nothing and answers through verify(). Refusing here ends the
      // handshake before the userauth phase: no credential is ever offered to an untrusted host.
      hostVerifier: (key: Buffer, verify: (valid: boolean) => void): void => {
        keyProblem = hostKeyProblem(target, sha256Fingerprint(key));
        verify(keyProblem === null);
      },
    };
    // ssh2 parses the private key inside connect() and throws there (e.g. a missing passphrase).
    try {
      client.connect(config);
    } catch (error) {
      fail(explain(target, error as Error, options.readyTimeoutMs));
    }
  });
}

function forwardThrough(jump: Client, target: SshTarget): Promise<Duplex> {
  return new Promise((resolve, reject) => {
    jump.forwardOut('127.0.0.1', 0, target.address, target.port, (error, channel) => {
      if (error) reject(new ApiError('unreachable', `${target.label}: the jump host could not reach ${target.address}:${target.port} (${error.message})`));
      else resolve(channel);
    });
  });
}

class SshShell extends EventEmitter<{ data: [Buffer]; exit: [number | null] }> implements ShellSession {
  readonly #channel: ClientChannel;
  constructor(channel: ClientChannel) {
    super();
    this.#channel = channel;
    channel.on('data', (data: Buffer) => this.emit('data', data));
    channel.stderr.on('data', (data: Buffer) => this.emit('data', data));
    channel.on('close', (code: number | null) => this.emit('exit', typeof code === 'number' ? code : null));
  }
  write(data: string | Buffer): void {
    this.#channel.write(data);
  }
  resize(cols: number, rows: number): void {
    this.#channel.setWindow(rows, cols, 0, 0);
  }
  pause(): void {
    this.#channel.pause();
  }
  resume(): void {
    this.#channel.resume();
  }
  close(): void {
    this.#channel.close();
  }
}

export class SshTransport extends EventEmitter<{ close: [reason: string] }> implements HostTransport {
  readonly kind = 'ssh';
  readonly user: string;
  readonly #clients: Client[];
  #closedByUs = false;

  private constructor(user: string, clients: Client[]) {
    super();
    this.user = user;
    this.#clients = clients;
    const main = clients[clients.length - 1]!;
    let lastError = '';
    main.on('error', (error: Error) => (lastError = error.message));
    main.once('close', () => {
      for (const client of clients) client.end();
      if (!this.#closedByUs) this.emit('close', lastError || 'the connection closed');
    });
  }

  /** Connects (through each jump host in turn, each verified), or rejects with an explained ApiError. */
  static async connect(target: SshTarget, secrets: SshSecrets = {}, options: SshOptions = {}): Promise<SshTransport> {
    const settings = {
      readyTimeoutMs: options.readyTimeoutMs ?? DEFAULTS.readyTimeoutMs,
      keepaliveIntervalMs: options.keepaliveIntervalMs ?? DEFAULTS.keepaliveIntervalMs,
      keepaliveCountMax: options.keepaliveCountMax ?? DEFAULTS.keepaliveCountMax,
    };
    const hops: SshTarget[] = [];
    for (let hop: SshTarget | undefined = target; hop; hop = hop.jump) hops.unshift(hop);
    if (hops.length > 4) throw new ApiError('invalid_args', `${target.label}: more than 3 jump hosts`);
    const clients: Client[] = [];
    try {
      for (const hop of hops) {
        const previous = clients[clients.length - 1];
        const sock = previous ? await forwardThrough(previous, hop) : undefined;
        const hopSecrets = hop === target ? secrets : (options.jumpSecrets?.[hop.label] ?? {});
        clients.push(await openClient(hop, hopSecrets, settings, sock));
      }
    } catch (error) {
      for (const client of clients) client.end();
      throw error;
    }
    return new SshTransport(target.user, clients);
  }

  exec(command: string, options: ExecOptions = {}): Promise<ExecResult> {
    const client = this.#clients[this.#clients.length - 1]!;
    return new Promise((resolve, reject) => {
      client.exec(command, (error, channel) => {
        if (error) return reject(new ApiError('unavailable', `cannot run a command: ${error.message}`));
        const kill = () => {
          channel.signal('KILL');
          channel.close();
        };
        const run = superviseExec({ stdout: channel, stderr: channel.stderr }, options, kill, { resolve, reject });
        channel.on('close', (code: number | null) => run.exited(typeof code === 'number' ? code : null));
        channel.end(options.stdin ?? undefined);
      });
    });
  }

  openShell(size: { cols: number; rows: number }): Promise<ShellSession> {
    const client = this.#clients[this.#clients.length - 1]!;
    return new Promise((resolve, reject) => {
      client.shell({ term: 'xterm-256color', cols: size.cols, rows: size.rows }, (error, channel) => {
        if (error) reject(new ApiError('unavailable', `cannot open a shell: ${error.message}`));
        else resolve(new SshShell(channel));
      });
    });
  }

  async upload(source: string | Buffer, remotePath: string, options: UploadOptions = {}): Promise<void> {
    const client = this.#clients[this.#clients.length - 1]!;
    const input = await uploadSource(source);
    return new Promise((resolve, reject) => {
      client.exec(uploadCommand(remotePath, input.size, options.mode), (error, channel) => {
        if (error) return reject(new ApiError('unavailable', `cannot upload ${remotePath}: ${error.message}`));
        let stderr = '';
        channel.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
        channel.on('data', () => undefined);
        channel.on('close', (code: number | null) => (code === 0 && !options.signal?.aborted ? resolve() : reject(uploadFailed(remotePath, options, code, stderr))));
        pump(input, channel, options);
      });
    });
  }

  start(command: string, options: StartOptions): Promise<HostProcess> {
    const client = this.#clients[this.#clients.length - 1]!;
    return new Promise((resolve, reject) => {
      client.exec(command, (error, channel) => {
        if (error) return reject(new ApiError('unavailable', `cannot run a command: ${error.message}`));
        const stdout = new StringDecoder('utf8');
        const stderr = new StringDecoder('utf8');
        channel.on('data', (data: Buffer) => options.onStdout(stdout.write(data)));
        channel.stderr.on('data', (data: Buffer) => options.onStderr?.(stderr.write(data)));
        // 'close' also comes when the connection under the channel dies.
        const exited = new Promise<{ code: number | null }>((done) => channel.on('close', (code: unknown) => done({ code: typeof code === 'number' ? code : null })));
        channel.on('error', () => undefined);
        resolve({
          write: (data) => void (channel.writable && channel.write(data)),
          end: () => channel.end(),
          kill: () => {
            channel.signal('KILL');
            channel.close();
          },
          exited,
        });
      });
    });
  }

  close(): void {
    this.#closedByUs = true;
    for (const client of [...this.#clients].reverse()) client.end();
  }
}
