// A template's build steps, run on the user's machine in the template's folder (argv, no shell),
// with output to the log, a time limit and cancel; their artifacts are then uploaded like files.

import { spawn } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ApiError } from '../../../app/errors.ts';
import type { Manifest } from '../../../app/templates.ts';

export interface BuildOptions {
  signal?: AbortSignal;
  onStep?: (name: string, index: number) => void;
  onOutput?: (line: string) => void;
}

function runStep(dir: string, step: Manifest['build'][number], options: BuildOptions): Promise<void> {
  return new Promise((resolve, reject) => {
    const [file, ...args] = step.command;
    const child = spawn(file!, args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], detached: process.platform !== 'win32' });
    const tail: string[] = [];
    let partial = '';
    const onData = (data: Buffer) => {
      const lines = (partial + data.toString()).split(/\r?\n/);
      partial = lines.pop() ?? '';
      for (const line of lines) {
        tail.push(line);
        if (tail.length > 10) tail.shift();
        options.onOutput?.(line);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    let stopped: ApiError | null = null;
    const kill = (why: ApiError) => {
      stopped = why;
      try {
        if (child.pid !== undefined) process.kill(process.platform === 'win32' ? child.pid : -child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => kill(new ApiError('timeout', `build step "${step.name}" did not finish within ${step.timeoutSeconds} s`)), step.timeoutSeconds * 1000);
    const onAbort = () => kill(new ApiError('cancelled', 'cancelled'));
    options.signal?.addEventListener('abort', onAbort, { once: true });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new ApiError('unavailable', `build step "${step.name}" cannot run ${file}: ${error.message}`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      if (partial) options.onOutput?.(partial);
      if (stopped) return reject(stopped);
      if (code === 0) return resolve();
      reject(new ApiError('unavailable', `build step "${step.name}" failed with exit code ${code}${tail.length ? `:\n${tail.join('\n')}` : ''}`));
    });
  });
}

/** Runs every build step in order and checks that each declared artifact exists afterwards. */
export async function runBuild(dir: string, manifest: Manifest, options: BuildOptions = {}): Promise<string[]> {
  const artifacts: string[] = [];
  for (const [index, step] of manifest.build.entries()) {
    options.onStep?.(step.name, index);
    await runStep(dir, step, options);
    for (const artifact of step.artifacts) {
      const info = await stat(join(dir, artifact)).catch(() => null);
      if (!info?.isFile()) throw new ApiError('unavailable', `build step "${step.name}" did not produce ${artifact}`);
      artifacts.push(artifact);
    }
  }
  return artifacts;
}
