// The Node templates' database endpoints (server-templates/node-common/database.mjs) against a
// real PostgreSQL: each template is built the way a deploy builds it (npm ci and esbuild in a build
// workspace), its bundle started on this machine with BENCHLAB_DB_URL pointing at a private
// instance started here by hand (tests/support/database-endpoints.ts), and each answer is checked
// against what the database holds. Also: the pool each process takes, `none`, and a database that
// does not answer. The lab's conformance suite checks the same templates deployed.

import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parseManifest } from '../../app/templates/templates.ts';
import { buildInWorkspace } from '../../main/services/templates/build-workspace.ts';
import { bundledPaths } from '../../main/services/templates/catalog.ts';
import { assertWorlds, checkDatabaseEndpoints, checkNoDatabase, fetchAnswer, fetchJson, freePort, postgresSkipReason, PrivatePostgres } from '../support/database-endpoints.ts';
import { until } from '../support/until.ts';

const TEMPLATES = ['node', 'node-express', 'node-fastify', 'node-restify'];
/** Kept between runs: an unchanged template is not built again. */
const BUILD_DIR = join(tmpdir(), 'benchlab-test-node-template-builds');
/** The pool of one server process: min(2 × cores, 32) connections. */
const POOL = Math.min(2 * availableParallelism(), 32);

/** A built template's bundle running on this machine, with what it has printed. */
class RunningServer {
  readonly output: string[] = [];
  readonly child: ChildProcess;
  readonly port: number;
  exitCode: number | null = null;

  constructor(bundle: string, port: number, databaseUrl: string, workers = 1) {
    this.port = port;
    const args = [bundle, '--port', String(port), '--variant', 'async', '--workers', String(workers), '--cache-file', 'false', '--payload', bundledPaths().payloadFile];
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

describe('Node templates: the database endpoints against a private PostgreSQL', { skip: postgresSkipReason }, () => {
  const postgres = new PrivatePostgres();
  const bundles = new Map<string, string>();
  const servers: RunningServer[] = [];

  before(async () => {
    await postgres.start();
    const templatesDir = bundledPaths().templatesDir;
    for (const id of TEMPLATES) {
      const parsed = parseManifest(readFileSync(join(templatesDir, id, 'template.json'), 'utf8'), id);
      assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
      const built = await buildInWorkspace(join(templatesDir, id), parsed.manifest, BUILD_DIR);
      assert.deepEqual(built.artifacts, ['dist/server.mjs', 'dist/components.json']);
      bundles.set(id, join(built.dir, 'dist', 'server.mjs'));
    }
  });
  after(async () => {
    for (const server of servers) await server.stop();
    postgres.stop();
  });

  async function serve(id: string, databaseUrl = postgres.url, workers = 1): Promise<RunningServer> {
    const server = new RunningServer(bundles.get(id)!, await freePort(), databaseUrl, workers);
    servers.push(server);
    await until(() => server.said(/listening on port|workers ready/) ?? server.exitCode !== null, `${id} listens`, 20_000);
    assert.equal(server.exitCode, null, `${id} is running: ${server.output.join('\n')}`);
    return server;
  }

  for (const id of TEMPLATES) {
    test(`${id}: /db, /queries, /updates, /fortunes and /docs answer from the database`, async () => {
      const server = await serve(id);
      const framework = id === 'node' ? '' : ` ${id.slice('node-'.length)} \\d+\\.\\d+\\.\\d+`;
      const listening = server.said(/: listening on port/) ?? '';
      assert.match(listening, /^node v\d+\S* .*pg \d+\.\d+\.\d+/, 'says the bundled pg');
      assert.match(listening, new RegExp(`${framework}.*: listening on port ${server.port} .*database pool ${POOL}\\)$`), 'says the framework and the pool');
      await checkDatabaseEndpoints(server.port, postgres);
      // The contract's type exactly: Node composes no header of its own.
      assert.equal((await fetchAnswer(server.port, '/fortunes')).type, 'text/html; charset=utf-8');
      await server.stop();
      assert.equal(server.exitCode, 0, 'a graceful stop closes the pool and exits 0');
    });
  }

  test('node with 2 cluster workers: each worker takes half the pool', async () => {
    const server = await serve('node', postgres.url, 2);
    await until(() => server.output.filter((line) => /worker \d+ \(pid \d+\): listening/.test(line)).length === 2, 'both workers listen', 20_000);
    assert.equal(server.output.filter((line) => line.endsWith(`database pool ${Math.ceil(POOL / 2)})`)).length, 2, server.output.join('\n'));
    assertWorlds(await fetchJson(server.port, '/queries?n=50'), 50, '/queries?n=50 on two workers');
    await server.stop();
  });

  test('concurrent /updates over the same rows all succeed: rows are locked in id order, so none deadlocks', async () => {
    const server = await serve('node-fastify');
    // 24 requests of 500 rows each at once: every pair shares rows (25 on average), in random orders.
    const answers = await Promise.all(Array.from({ length: 24 }, () => fetchAnswer(server.port, '/updates?n=500')));
    assert.deepEqual(
      answers.map((answer) => answer.status),
      Array(24).fill(200),
      answers.find((answer) => answer.status !== 200)?.text,
    );
    assert.equal(server.said(/deadlock/), undefined);
    await server.stop();
  });

  test('none: the database endpoints answer 503 with what to do; the others serve', async () => {
    const server = await serve('node-restify', 'none');
    assert.ok(server.said(/no database\)$/), server.output.join('\n'));
    await checkNoDatabase(server.port);
    assert.equal((await fetchAnswer(server.port, '/hello')).text, 'hello world\n');
  });

  test('a database that does not answer fails the start with the URL (without its password) and why', async () => {
    const closed = `postgresql://benchlab:secret@127.0.0.1:${await freePort()}/benchlab`;
    const server = new RunningServer(bundles.get('node-fastify')!, await freePort(), closed);
    servers.push(server);
    await until(() => server.exitCode !== null, 'the server gives up', 20_000);
    assert.equal(server.exitCode, 1);
    const said = server.output.join('\n');
    assert.match(said, /cannot reach the database at postgresql:\/\/benchlab@127\.0\.0\.1:\d+\/benchlab: .*ECONNREFUSED/);
    assert.doesNotMatch(said, /secret/);
  });
});
