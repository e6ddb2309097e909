// The restify template's database `mongo` against the real FerretDB: the template built the way a
// deploy builds it (npm ci and esbuild), its bundle started on this machine with BENCHLAB_DB_URL
// pointing at a FerretDB started here by hand (tests/support/mongo-endpoints.ts), and /docs checked
// against what the collection holds, through Mongoose. Also: a template without a MongoDB client
// refuses a mongodb:// URL at start. The lab's mongo test checks the same deployed.

import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parseManifest } from '../../app/templates/templates.ts';
import { buildInWorkspace } from '../../main/services/templates/build-workspace.ts';
import { bundledPaths } from '../../main/services/templates/catalog.ts';
import { fetchAnswer, freePort } from '../support/database-endpoints.ts';
import { checkMongoEndpoints, ferretdbSkipReason, PrivateFerretdb } from '../support/mongo-endpoints.ts';
import { until } from '../support/until.ts';

/** Kept between runs: an unchanged template is not built again. Its own (the PostgreSQL tests may build the same templates at once). */
const BUILD_DIR = join(tmpdir(), 'benchlab-test-node-mongo-builds');
const POOL = Math.min(2 * availableParallelism(), 32);

class RunningServer {
  readonly output: string[] = [];
  readonly child: ChildProcess;
  readonly port: number;
  exitCode: number | null = null;

  constructor(bundle: string, port: number, databaseUrl: string) {
    this.port = port;
    const args = [bundle, '--port', String(port), '--variant', 'async', '--workers', '1', '--cache-file', 'false', '--payload', bundledPaths().payloadFile];
    this.child = spawn(process.execPath, args, { env: { ...process.env, BENCHLAB_DB_URL: databaseUrl }, stdio: ['ignore', 'pipe', 'pipe'] });
    const collect = (chunk: Buffer) => this.output.push(...chunk.toString().split('\n').filter((line) => line !== ''));
    this.child.stdout!.on('data', collect);
    this.child.stderr!.on('data', collect);
    this.child.on('exit', (code) => {
      this.exitCode = code ?? -1;
    });
  }

  said(pattern: RegExp): string | undefined {
    return this.output.find((line) => pattern.test(line));
  }

  async stop(): Promise<void> {
    if (this.exitCode !== null) return;
    this.child.kill('SIGTERM');
    await until(() => this.exitCode !== null, 'the server exits', 10_000);
  }
}

describe('Node templates: /docs with Mongoose against the real FerretDB', { skip: ferretdbSkipReason }, () => {
  const ferretdb = new PrivateFerretdb();
  const bundles = new Map<string, string>();
  const servers: RunningServer[] = [];

  before(async () => {
    await ferretdb.start();
    const templatesDir = bundledPaths().templatesDir;
    for (const id of ['node-restify', 'node']) {
      const parsed = parseManifest(readFileSync(join(templatesDir, id, 'template.json'), 'utf8'), id);
      assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
      const built = await buildInWorkspace(join(templatesDir, id), parsed.manifest, BUILD_DIR);
      bundles.set(id, join(built.dir, 'dist', 'server.mjs'));
    }
  });
  after(async () => {
    for (const server of servers) await server.stop();
    ferretdb.stop();
  });

  test('FerretDB is the shipped version, seeded with the contract’s 100 documents', () => {
    assert.match(ferretdb.version, /^\d+\.\d+\.\d+$/, 'answers buildInfo with the MongoDB version it speaks');
    assert.equal(ferretdb.docs().count, 100);
  });

  test('node-restify: /docs inserts one document and answers the newest 100 through Mongoose; the others answer 503', async () => {
    const server = new RunningServer(bundles.get('node-restify')!, await freePort(), ferretdb.url);
    servers.push(server);
    await until(() => server.said(/listening on port/) ?? server.exitCode !== null, 'restify listens', 30_000);
    assert.equal(server.exitCode, null, server.output.join('\n'));
    assert.match(server.said(/listening on port/) ?? '', new RegExp(`mongoose \\d+\\.\\d+\\.\\d+.*database pool ${POOL}\\)$`), 'says the bundled Mongoose and the pool');
    await checkMongoEndpoints(server.port, ferretdb);
    assert.equal((await fetchAnswer(server.port, '/json')).status, 200);
    await server.stop();
    assert.equal(server.exitCode, 0, 'a graceful stop closes the connection and exits 0');
  });

  test('a template without a MongoDB client refuses a mongodb:// URL at start, saying so', async () => {
    const server = new RunningServer(bundles.get('node')!, await freePort(), ferretdb.url);
    servers.push(server);
    await until(() => server.exitCode !== null, 'the server gives up', 20_000);
    assert.equal(server.exitCode, 1);
    assert.match(server.output.join('\n'), /this template has no MongoDB client/);
  });
});
