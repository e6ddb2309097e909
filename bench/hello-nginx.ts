// The cheap target the benchmarks load: Debian's nginx, one worker answering "hello, world" to
// every request, set for many keep-alive connections (up to 10,000 held at once). Its config and
// log live in a given dir; a launcher puts it where the benchmark needs it (taskset pins it to a
// core, nsenter puts it in a lab host's network namespace). Ready once its port takes connections;
// stopped with SIGQUIT. The lab benches run it on an instance's server host around their rounds.

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { connect } from 'node:net';
import { join } from 'node:path';
import { labDown, labStatus } from '../tests/lab/lab.ts';
import type { LabInstance } from '../tests/lab/layout.ts';

export interface HelloNginxOptions {
  /** Where its config, pid file and log are written. */
  dir: string;
  address: string;
  port: number;
  /** What runs nginx: ['taskset', '-c', '1'], ['nsenter', '--target', pid, '--net', '--']. */
  launcher: string[];
  /** Said in the error when it does not start: "on bl-server", say. */
  where?: string;
}

export interface HelloNginx {
  url: string;
  stop(): Promise<void>;
}

const READY_WITHIN_MS = 10_000;

function helloNginxConfig(dir: string, address: string, port: number): string {
  return `worker_processes 1;
worker_rlimit_nofile 65536;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
daemon off;
events { worker_connections 30000; }
http {
  access_log off;
  keepalive_requests 1000000000;
  keepalive_timeout 120s;
  server {
    listen ${address}:${port} backlog=16384;
    location / { default_type text/plain; return 200 "hello, world\\n"; }
  }
}
`;
}

function portAnswers(address: string, port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect(port, address);
    socket.once('connect', () => (socket.destroy(), done(true)));
    socket.once('error', () => done(false));
  });
}

/** Starts nginx; resolves once it accepts connections, or ends it and throws with its last log line if it is not ready within 10 s. */
export async function startHelloNginx(options: HelloNginxOptions): Promise<HelloNginx> {
  const { dir, address, port } = options;
  const config = join(dir, 'nginx.conf');
  writeFileSync(config, helloNginxConfig(dir, address, port));
  const [command, ...launcherArgs] = options.launcher;
  const child = spawn(command!, [...launcherArgs, 'nginx', '-p', dir, '-c', config, '-e', join(dir, 'error.log')], { stdio: 'ignore' });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  let alive = true;
  void exited.then(() => (alive = false));
  const deadline = Date.now() + READY_WITHIN_MS;
  while (!(await portAnswers(address, port))) {
    if (!alive || Date.now() > deadline) {
      child.kill('SIGQUIT');
      const log = join(dir, 'error.log');
      const lastLine = (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').pop() : '') || 'no log';
      throw new Error(`nginx did not start${options.where ? ` ${options.where}` : ''}: ${lastLine}`);
    }
    await new Promise((next) => setTimeout(next, 50));
  }
  return {
    url: `http://${address}:${port}`,
    stop: async () => {
      child.kill('SIGQUIT');
      await exited;
    },
  };
}

/** nginx inside a lab instance's server host (its network namespace, entered through its sshd). */
async function startLabServerNginx(dir: string, instance: LabInstance, port: number): Promise<HelloNginx> {
  const { sshdPid, address } = (await labStatus({ instance })).hosts.server;
  if (sshdPid === null) throw new Error(`the server host of the ${instance} lab is not running`);
  return startHelloNginx({ dir, address, port, launcher: ['nsenter', '--target', String(sshdPid), '--net', '--'], where: `on the ${instance} lab's server` });
}

/**
 * Runs `use` against nginx on a lab instance's server host, with the Benchlab back end `open`
 * gives; then stops nginx, closes the back end, takes the instance down and removes nginx's files.
 */
export async function withLabServerNginx<Lab extends { close(): Promise<void> }, T>(
  instance: LabInstance,
  port: number,
  open: () => Promise<Lab>,
  use: (nginx: HelloNginx, lab: Lab) => Promise<T>,
): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), `benchlab-bench-nginx-${instance}-`));
  let lab: Lab | null = null;
  let nginx: HelloNginx | null = null;
  try {
    lab = await open();
    nginx = await startLabServerNginx(dir, instance, port);
    return await use(nginx, lab);
  } finally {
    await nginx?.stop();
    await lab?.close();
    await labDown({ instance });
    rmSync(dir, { recursive: true, force: true });
  }
}
