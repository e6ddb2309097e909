// The Node template as the loopback benches run it on this machine: built the way a deploy builds
// it (npm ci and esbuild, kept between runs), started as a child process with one worker, waited
// for until it answers, and stopped.

import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseManifest } from '../app/templates/templates.ts';
import { buildInWorkspace } from '../main/services/templates/build-workspace.ts';
import { bundledPaths } from '../main/services/templates/catalog.ts';

/** The Node template's bundle, built (or found built) in the benches' own workspace. */
export async function buildNodeTemplate(): Promise<string> {
  const templateDir = join(bundledPaths().templatesDir, 'node');
  const manifest = parseManifest(readFileSync(join(templateDir, 'template.json'), 'utf8'), 'node');
  if (!manifest.ok) throw new Error(`the node template's manifest: ${manifest.error}`);
  const built = await buildInWorkspace(templateDir, manifest.manifest, join(tmpdir(), 'benchlab-bench-template-builds'));
  return join(built.dir, 'dist', 'server.mjs');
}

/** The bundle's command line on `port`: the async variant, one process; `prefix` runs it under another command (taskset), which must exec it. */
export function nodeTemplateArgv(bundle: string, port: number, cacheFile: boolean, prefix: readonly string[] = []): string[] {
  return [...prefix, process.execPath, bundle, '--port', String(port), '--variant', 'async', '--workers', '1', '--cache-file', String(cacheFile), '--payload', bundledPaths().payloadFile];
}

/** Starts the server and resolves once its /health answers (within 10 s). */
export async function startAnswering(argv: readonly string[], port: number): Promise<ChildProcess> {
  const child = spawn(argv[0]!, argv.slice(1), { stdio: 'ignore' });
  const until = Date.now() + 10_000;
  for (;;) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/health`);
      if (response.ok) return child;
    } catch {
      // not yet
    }
    if (Date.now() > until || child.exitCode !== null) {
      child.kill('SIGKILL');
      throw new Error(`nothing answers on port ${port}`);
    }
    await new Promise((done) => setTimeout(done, 100));
  }
}

export async function stopLocal(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((done) => child.once('exit', done));
  child.kill('SIGTERM');
  await exited;
}
