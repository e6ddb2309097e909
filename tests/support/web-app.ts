// Starts the real web mode (`node main/web/main.ts`) on a fresh data dir for a test, and stops it.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const REPO_ROOT = resolve(import.meta.dirname, '..', '..');

export interface RunningWebApp {
  url: string;
  origin: string;
  dataDir: string;
  process: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

export async function startWebApp(options: { dataDir?: string; timeoutMs?: number } = {}): Promise<RunningWebApp> {
  const ownsDataDir = !options.dataDir;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'benchlab-e2e-'));
  const child = spawn(process.execPath, [join(REPO_ROOT, 'main/web/main.ts'), '--data-dir', dataDir], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));

  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`web mode did not print its URL in time:\n${output}`)), options.timeoutMs ?? 15000);
    const onData = () => {
      const match = /open (http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{64})/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolveUrl(match[1]);
      }
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`web mode exited with ${code} before printing its URL:\n${output}`));
    });
  });

  return {
    url,
    origin: new URL(url).origin,
    dataDir,
    process: child,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((done) => child.once('exit', done));
        child.kill('SIGTERM');
        await exited;
      }
      if (ownsDataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
