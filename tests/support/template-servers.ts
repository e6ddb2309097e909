// Server templates built the way a deploy builds them (tests/templates/): a bundled template's
// manifest read and checked, its build in a build workspace kept between runs, and a built template
// started on this machine as a child process whose printed lines the test reads.

import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, before } from 'node:test';
import { parseManifest, renderStartArgv, resolveDeploySettings, serverEnvironment, type DeployChoice, type DeploySettings, type Manifest } from '../../app/templates/templates.ts';
import { buildInWorkspace } from '../../main/services/templates/build-workspace.ts';
import { bundledPaths } from '../../main/services/templates/catalog.ts';
import { freePort } from './database-endpoints.ts';
import { until } from './until.ts';

/** The database pool of one server process, as the templates size it: min(2 × cores, 32) connections. */
export const DATABASE_POOL = Math.min(2 * availableParallelism(), 32);

/** A bundled template's manifest, which must parse. */
export function bundledManifest(id: string): Manifest {
  const parsed = parseManifest(readFileSync(join(bundledPaths().templatesDir, id, 'template.json'), 'utf8'), id);
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
  return parsed.manifest;
}

/** A bundled template built in `buildDir` (kept between runs: an unchanged template is not built again). */
export function buildBundled(id: string, manifest: Manifest, buildDir: string): ReturnType<typeof buildInWorkspace> {
  return buildInWorkspace(join(bundledPaths().templatesDir, id), manifest, buildDir);
}

/** A built JVM template with the payload its start command names beside its jar, as a deploy uploads it. */
export async function buildJvmTemplate(id: string, manifest: Manifest, buildDir: string): Promise<string> {
  const { dir } = await buildBundled(id, manifest, buildDir);
  copyFileSync(bundledPaths().payloadFile, join(dir, manifest.payload!));
  return dir;
}

/** A built template's command line and environment as a deploy renders them for these choices (Java from the PATH). */
export function deployedStart(
  manifest: Manifest,
  place: { dir: string; run: string },
  choices: DeployChoice,
  databaseUrl: string,
): { argv: string[]; environment: Record<string, string>; settings: DeploySettings } {
  const resolved = resolveDeploySettings(manifest, choices);
  assert.ok(resolved.ok, resolved.ok ? '' : resolved.errors.join('; '));
  const argv = renderStartArgv(manifest, { settings: resolved.settings, ...place, runtimes: { java: 'java' }, databaseUrl });
  return { argv, environment: serverEnvironment(manifest, databaseUrl), settings: resolved.settings };
}

/** A Node template's bundle started on its own, one process or `workers` cluster workers, async variant. */
export function nodeBundleArgv(bundle: string, port: number, workers = 1): string[] {
  return [process.execPath, bundle, '--port', String(port), '--variant', 'async', '--workers', String(workers), '--cache-file', 'false', '--payload', bundledPaths().payloadFile];
}

/** A template running on this machine, with the whole lines it has printed on stdout and stderr. */
export class RunningServer {
  readonly output: string[] = [];
  readonly child: ChildProcess;
  exitCode: number | null = null;

  constructor(argv: readonly string[], environment: Record<string, string>) {
    this.child = spawn(argv[0]!, argv.slice(1), { env: { ...process.env, ...environment }, stdio: ['ignore', 'pipe', 'pipe'] });
    // Whole lines only: a JVM writes a line in several pieces.
    for (const stream of [this.child.stdout!, this.child.stderr!]) createInterface({ input: stream }).on('line', (line) => this.output.push(line));
    this.child.on('exit', (code, signal) => {
      this.exitCode = code ?? (signal ? 128 : -1);
    });
  }

  said(pattern: RegExp): string | undefined {
    return this.output.find((line) => pattern.test(line));
  }

  /** Waits until it prints a line like `listening`, or exits, and requires it to be running. */
  async listens(what: string, listening: RegExp, timeoutMs: number): Promise<void> {
    await until(() => this.said(listening) ?? this.exitCode !== null, `${what} listens`, timeoutMs);
    assert.equal(this.exitCode, null, `${what} is running: ${this.output.join('\n')}`);
  }

  async stop(): Promise<void> {
    if (this.exitCode !== null) return;
    this.child.kill('SIGTERM');
    await until(() => this.exitCode !== null, 'the server exits', 15_000);
  }
}

/**
 * A suite's Node template bundles against a database it starts by hand: the database started and
 * each template built the way a deploy builds it (`built` sees each build) before the suite's
 * tests, every server `start` started and the database stopped after them. Call it inside the
 * suite's describe.
 */
export function nodeBundlesAgainst(
  database: { start(): Promise<unknown>; stop(): void },
  ids: readonly string[],
  buildDir: string,
  built: (build: Awaited<ReturnType<typeof buildBundled>>) => void = () => {},
): { start(id: string, databaseUrl: string, workers?: number): Promise<{ server: RunningServer; port: number }> } {
  const bundles = new Map<string, string>();
  const servers: RunningServer[] = [];
  before(async () => {
    await database.start();
    for (const id of ids) {
      const build = await buildBundled(id, bundledManifest(id), buildDir);
      built(build);
      bundles.set(id, join(build.dir, 'dist', 'server.mjs'));
    }
  });
  after(async () => {
    for (const server of servers) await server.stop();
    database.stop();
  });
  return {
    /** The template's bundle started with this database, and its port. */
    async start(id, databaseUrl, workers = 1) {
      const port = await freePort();
      const server = new RunningServer(nodeBundleArgv(bundles.get(id)!, port, workers), { BENCHLAB_DB_URL: databaseUrl });
      servers.push(server);
      return { server, port };
    },
  };
}
