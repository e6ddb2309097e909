// The Vert.x template's database `mongo` against the real FerretDB: built the way a deploy builds
// it (Maven in a build workspace), its jar started on this machine with the start command and
// environment its manifest renders for the knob database mongo, BENCHLAB_DB_URL pointing at a
// FerretDB started here by hand (tests/support/mongo-endpoints.ts), and /docs checked against what
// the collection holds, in both variants, through Vert.x's MongoDB client.

import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, describe, test } from 'node:test';
import { databaseKindOf, parseManifest, renderStartArgv, resolveDeploySettings, serverEnvironment, type Manifest } from '../../app/templates/templates.ts';
import { buildInWorkspace } from '../../main/services/templates/build-workspace.ts';
import { bundledPaths } from '../../main/services/templates/catalog.ts';
import { fetchAnswer, freePort } from '../support/database-endpoints.ts';
import { checkMongoEndpoints, ferretdbSkipReason, PrivateFerretdb } from '../support/mongo-endpoints.ts';
import { until } from '../support/until.ts';

/** Kept between runs: an unchanged template is not built again. Its own (the PostgreSQL tests may build Vert.x at once). */
const BUILD_DIR = join(tmpdir(), 'benchlab-test-jvm-mongo-builds');
const POOL = Math.min(2 * availableParallelism(), 32);

class RunningServer {
  readonly output: string[] = [];
  readonly child: ChildProcess;
  exitCode: number | null = null;

  constructor(argv: string[], environment: Record<string, string>) {
    this.child = spawn(argv[0]!, argv.slice(1), { env: { ...process.env, ...environment }, stdio: ['ignore', 'pipe', 'pipe'] });
    for (const stream of [this.child.stdout!, this.child.stderr!]) createInterface({ input: stream }).on('line', (line) => this.output.push(line));
    this.child.on('exit', (code, signal) => {
      this.exitCode = code ?? (signal ? 128 : -1);
    });
  }

  said(pattern: RegExp): string | undefined {
    return this.output.find((line) => pattern.test(line));
  }

  async stop(): Promise<void> {
    if (this.exitCode !== null) return;
    this.child.kill('SIGTERM');
    await until(() => this.exitCode !== null, 'the server exits', 15_000);
  }
}

describe('Vert.x template: /docs with its MongoDB client against the real FerretDB', { skip: ferretdbSkipReason }, () => {
  const ferretdb = new PrivateFerretdb();
  const servers: RunningServer[] = [];
  const runDir = mkdtempSync(join(tmpdir(), 'benchlab-jvm-mongo-run-'));
  let manifest: Manifest;
  let dir = '';

  before(async () => {
    await ferretdb.start();
    const parsed = parseManifest(readFileSync(join(bundledPaths().templatesDir, 'vertx', 'template.json'), 'utf8'), 'vertx');
    assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
    manifest = parsed.manifest;
    dir = (await buildInWorkspace(join(bundledPaths().templatesDir, 'vertx'), manifest, BUILD_DIR)).dir;
    copyFileSync(bundledPaths().payloadFile, join(dir, manifest.payload!));
  });
  after(async () => {
    for (const server of servers) await server.stop();
    ferretdb.stop();
    rmSync(runDir, { recursive: true, force: true });
  });

  for (const variant of ['eventloop', 'blocking']) {
    test(`vertx ${variant}: /docs inserts one document and answers the newest 100; the others answer 503`, async () => {
      const port = await freePort();
      const resolved = resolveDeploySettings(manifest, { variant, port, knobs: { database: 'mongo' } });
      assert.ok(resolved.ok, resolved.ok ? '' : resolved.errors.join('; '));
      assert.equal(databaseKindOf(manifest, resolved.settings), 'mongodb');
      const argv = renderStartArgv(manifest, { settings: resolved.settings, dir, run: runDir, runtimes: { java: 'java' }, databaseUrl: ferretdb.url });
      const server = new RunningServer(argv, serverEnvironment(manifest, ferretdb.url));
      servers.push(server);
      await until(() => server.said(/listening on port/) ?? server.exitCode !== null, `vertx ${variant} listens`, 60_000);
      assert.equal(server.exitCode, null, server.output.join('\n'));
      const listening = new RegExp(`listening on port ${port} \\(variant ${variant}, .*database mongodb://127\\.0\\.0\\.1:${ferretdb.port}/benchlab, pool ${POOL}, handlers in Java\\)$`);
      assert.ok(server.said(listening), server.output.join('\n'));
      await checkMongoEndpoints(port, ferretdb);
      assert.equal((await fetchAnswer(port, '/hello')).text, 'hello world\n', 'the other endpoints serve');
      await server.stop();
    });
  }
});
