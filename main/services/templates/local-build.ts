// A template's build steps, run on the user's machine in the template's folder (argv, no shell),
// with output to the log line by line as it comes, Maven's and npm's downloads counted into one
// progress line (build-progress.ts), a time limit and cancel; their artifacts are then uploaded like files.
// A step that names its inputs is skipped while their content hash is the one of its last good run
// (a Maven build takes seconds to minutes; most deploys change nothing), and builds of one folder
// never run at once.

import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ApiError } from '../../../app/common/errors.ts';
import type { Manifest } from '../../../app/templates/templates.ts';
import { BuildProgress, transferArgv } from './build-progress.ts';

export interface BuildOptions {
  signal?: AbortSignal;
  onStep?: (name: string, index: number) => void;
  onOutput?: (line: string) => void;
  /** The step's download progress so far ("Maven downloaded 57 files, 3.4 MB so far (…)"), replacing the previous one. */
  onProgress?: (text: string) => void;
}

type BuildStep = Manifest['build'][number];

/** Files under a path of the template's folder, sorted, relative to the folder. */
async function filesUnder(dir: string, path: string): Promise<string[]> {
  const info = await stat(join(dir, path)).catch(() => null);
  if (!info) return [];
  if (!info.isDirectory()) return [path];
  const entries = (await readdir(join(dir, path))).sort();
  return (await Promise.all(entries.map((entry) => filesUnder(dir, `${path}/${entry}`)))).flat();
}

/** sha256 over the step's command, its artifacts' names and every input file's path and bytes. */
export async function stepInputsHash(dir: string, step: BuildStep): Promise<string> {
  const hash = createHash('sha256').update(JSON.stringify({ command: step.command, artifacts: step.artifacts, inputs: step.inputs }));
  for (const input of step.inputs ?? []) {
    for (const file of await filesUnder(dir, input)) {
      const bytes = await readFile(join(dir, file));
      hash.update(`\0${file}\0${bytes.length}\0`).update(bytes);
    }
  }
  return hash.digest('hex');
}

/** Where a step's hash is kept: beside its first artifact, so cleaning the build output forgets it too. */
function stampPath(dir: string, step: BuildStep): string | null {
  return step.inputs && step.inputs.length > 0 && step.artifacts.length > 0 ? `${join(dir, step.artifacts[0]!)}.inputs-sha256` : null;
}

async function upToDate(dir: string, step: BuildStep, hash: string): Promise<boolean> {
  const stamp = stampPath(dir, step);
  if (!stamp || (await readFile(stamp, 'utf8').catch(() => '')) !== hash) return false;
  for (const artifact of step.artifacts) {
    if (!(await stat(join(dir, artifact)).catch(() => null))?.isFile()) return false;
  }
  return true;
}

/** Builds in progress by folder: a second deploy of the same template waits for the first build. */
const building = new Map<string, Promise<unknown>>();

function runStep(dir: string, step: Manifest['build'][number], options: BuildOptions): Promise<void> {
  return new Promise((resolve, reject) => {
    const { argv, env } = transferArgv(step.command);
    const [file, ...args] = argv;
    const child = spawn(file!, args, { cwd: dir, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: process.platform !== 'win32' });
    const tail: string[] = [];
    const progress = new BuildProgress((text) => options.onProgress?.(text));
    let partial = '';
    const onLine = (line: string) => {
      if (line.trim() === '' || progress.take(line)) return;
      tail.push(line);
      if (tail.length > 10) tail.shift();
      options.onOutput?.(line);
    };
    const onData = (data: Buffer) => {
      const lines = (partial + data.toString()).split(/\r?\n/);
      partial = lines.pop() ?? '';
      lines.forEach(onLine);
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
      const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
      reject(new ApiError('unavailable', `build step "${step.name}" cannot run ${file}: ${missing ? `${file} is not installed on this machine (or not on PATH)` : error.message}`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      if (partial) onLine(partial);
      const downloaded = progress.finish();
      if (downloaded) options.onOutput?.(downloaded);
      if (stopped) return reject(stopped);
      if (code === 0) return resolve();
      reject(new ApiError('unavailable', `build step "${step.name}" failed with exit code ${code}${tail.length ? `:\n${tail.join('\n')}` : ''}`));
    });
  });
}

/** Runs every build step in order (skipping those whose inputs are unchanged) and checks each declared artifact exists afterwards. */
export async function runBuild(dir: string, manifest: Manifest, options: BuildOptions = {}): Promise<string[]> {
  const previous = building.get(dir) ?? Promise.resolve();
  const mine = previous.catch(() => undefined).then(() => buildSteps(dir, manifest, options));
  building.set(dir, mine);
  try {
    return await mine;
  } finally {
    if (building.get(dir) === mine) building.delete(dir);
  }
}

async function buildSteps(dir: string, manifest: Manifest, options: BuildOptions): Promise<string[]> {
  const artifacts: string[] = [];
  for (const [index, step] of manifest.build.entries()) {
    if (options.signal?.aborted) throw new ApiError('cancelled', 'cancelled');
    const hash = stampPath(dir, step) ? await stepInputsHash(dir, step) : null;
    if (hash && (await upToDate(dir, step, hash))) {
      options.onStep?.(`${step.name}: up to date (sources unchanged)`, index);
    } else {
      options.onStep?.(step.name, index);
      await runStep(dir, step, options);
    }
    for (const artifact of step.artifacts) {
      const info = await stat(join(dir, artifact)).catch(() => null);
      if (!info?.isFile()) throw new ApiError('unavailable', `build step "${step.name}" did not produce ${artifact}`);
      artifacts.push(artifact);
    }
    if (hash) await writeFile(stampPath(dir, step)!, hash);
  }
  return artifacts;
}
