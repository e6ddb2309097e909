// The JVM templates' database endpoints (server-templates/jvm-common: JDBC for Tomcat and Jetty,
// Vert.x's reactive client; Spring Boot's JdbcTemplate and R2DBC) against a real PostgreSQL: each template is built the way a deploy
// builds it (Maven in a build workspace), its jar started on this machine with the start command
// and environment its manifest renders, BENCHLAB_DB_URL pointing at a private instance started here
// by hand, and each answer checked against what the database holds. The lab's conformance suite
// checks the same templates deployed, with the database knob off.

import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, describe, test } from 'node:test';
import { parseManifest, renderStartArgv, resolveDeploySettings, serverEnvironment, type Manifest } from '../../app/templates/templates.ts';
import { buildInWorkspace } from '../../main/services/templates/build-workspace.ts';
import { bundledPaths } from '../../main/services/templates/catalog.ts';
import { checkDatabaseEndpoints, checkNoDatabase, fetchAnswer, freePort, postgresSkipReason, PrivatePostgres } from '../support/database-endpoints.ts';
import { until } from '../support/until.ts';

/** Each template with the variants checked here: every way it runs its database calls. */
const TEMPLATES: Record<string, string[]> = {
  tomcat: ['sync', 'async'],
  jetty: ['blocking', 'async'],
  vertx: ['eventloop', 'blocking'],
  'spring-boot': ['sync', 'async', 'webflux'],
};
/** Kept between runs: an unchanged template is not built again. */
const BUILD_DIR = join(tmpdir(), 'benchlab-test-jvm-template-builds');
const POOL = Math.min(2 * availableParallelism(), 32);

/** A built template's jar running on this machine, with what it has printed. */
class RunningServer {
  readonly output: string[] = [];
  readonly child: ChildProcess;
  exitCode: number | null = null;

  constructor(argv: string[], environment: Record<string, string>) {
    this.child = spawn(argv[0]!, argv.slice(1), { env: { ...process.env, ...environment }, stdio: ['ignore', 'pipe', 'pipe'] });
    for (const stream of [this.child.stdout!, this.child.stderr!]) {
      // Whole lines only: a JVM writes a line in several pieces.
      createInterface({ input: stream }).on('line', (line) => this.output.push(line));
    }
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

describe('JVM templates: the database endpoints against a private PostgreSQL', { skip: postgresSkipReason }, () => {
  const postgres = new PrivatePostgres();
  const built = new Map<string, { manifest: Manifest; dir: string }>();
  const servers: RunningServer[] = [];
  const runDir = mkdtempSync(join(tmpdir(), 'benchlab-jvm-db-run-'));

  before(async () => {
    await postgres.start();
    const templatesDir = bundledPaths().templatesDir;
    for (const id of Object.keys(TEMPLATES)) {
      const parsed = parseManifest(readFileSync(join(templatesDir, id, 'template.json'), 'utf8'), id);
      assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
      // Vert.x also speaks MongoDB's protocol (tests/templates/jvm-mongo.test.ts).
      assert.deepEqual(parsed.manifest.database, { kind: 'postgresql', minVersion: 13, knob: 'database', ...(id === 'vertx' ? { mongodb: true } : {}) });
      const { dir } = await buildInWorkspace(join(templatesDir, id), parsed.manifest, BUILD_DIR);
      copyFileSync(bundledPaths().payloadFile, join(dir, parsed.manifest.payload!));
      built.set(id, { manifest: parsed.manifest, dir });
    }
  });
  after(async () => {
    for (const server of servers) await server.stop();
    postgres.stop();
    rmSync(runDir, { recursive: true, force: true });
  });

  /** The template started as a deploy starts it, with the database knob on and `databaseUrl` as {db.url}. */
  async function start(id: string, variant: string, databaseUrl: string): Promise<{ server: RunningServer; port: number }> {
    const { manifest, dir } = built.get(id)!;
    const port = await freePort();
    const resolved = resolveDeploySettings(manifest, { variant, port, knobs: { database: databaseUrl !== 'none' } });
    assert.ok(resolved.ok, resolved.ok ? '' : resolved.errors.join('; '));
    const argv = renderStartArgv(manifest, { settings: resolved.settings, dir, run: runDir, runtimes: { java: 'java' }, databaseUrl });
    const server = new RunningServer(argv, serverEnvironment(manifest, databaseUrl));
    servers.push(server);
    return { server, port };
  }

  async function serve(id: string, variant: string, databaseUrl: string): Promise<{ server: RunningServer; port: number }> {
    const started = await start(id, variant, databaseUrl);
    await until(() => started.server.said(/listening on port/) ?? started.server.exitCode !== null, `${id} ${variant} listens`, 30_000);
    assert.equal(started.server.exitCode, null, `${id} is running: ${started.server.output.join('\n')}`);
    return started;
  }

  for (const [id, variants] of Object.entries(TEMPLATES)) {
    for (const variant of variants) {
      test(`${id} ${variant}: /db, /queries, /updates, /fortunes and /docs answer from the database`, async () => {
        const { server, port } = await serve(id, variant, postgres.url);
        const listening = new RegExp(`listening on port ${port} \\(variant ${variant}, .*database postgresql://benchlab@127\\.0\\.0\\.1:${postgres.port}/benchlab, pool ${POOL}(, handlers in Java)?\\)$`);
        assert.ok(server.said(listening), server.output.join('\n'));
        assert.ok(!server.output.some((line) => line.includes(postgres.password)), 'the password is in no log line');
        await checkDatabaseEndpoints(port, postgres);
        assert.equal((await fetchAnswer(port, '/db', 'POST')).status, 405, 'POST /db: 405');
        assert.equal((await fetchAnswer(port, '/hello')).text, 'hello world\n', 'the other endpoints serve');
        await server.stop();
      });
    }
  }

  for (const id of Object.keys(TEMPLATES)) {
    test(`${id} with the knob off: the database endpoints answer 503 with what to do; the others serve`, async () => {
      const { server, port } = await serve(id, TEMPLATES[id]![0]!, 'none');
      // (Vert.x says which language its handlers run in after it.)
      assert.ok(server.said(/, no database(, handlers in Java)?\)$/), server.output.join('\n'));
      await checkNoDatabase(port);
      assert.equal((await fetchAnswer(port, '/hello')).text, 'hello world\n');
      await server.stop();
    });
  }

  for (const id of Object.keys(TEMPLATES)) {
    test(`${id}: a database that does not answer fails the start with the URL (without its password)`, async () => {
      const closed = `postgresql://benchlab:secret@127.0.0.1:${await freePort()}/benchlab`;
      const { server } = await start(id, TEMPLATES[id]![0]!, closed);
      await until(() => server.exitCode !== null, `${id} gives up`, 30_000);
      assert.notEqual(server.exitCode, 0);
      const said = server.output.join('\n');
      assert.match(said, /cannot connect to the database postgresql:\/\/benchlab@127\.0\.0\.1:\d+\/benchlab: .*(refused|Connection)/i);
      assert.doesNotMatch(said, /secret/);
    });
  }
});
