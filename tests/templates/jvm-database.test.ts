// The JVM templates' database endpoints (server-templates/jvm-common: JDBC for Tomcat and Jetty,
// Vert.x's reactive client; Spring Boot's JdbcTemplate and R2DBC) against a real PostgreSQL: each template is built the way a deploy
// builds it (Maven in a build workspace), its jar started on this machine with the start command
// and environment its manifest renders, BENCHLAB_DB_URL pointing at a private instance started here
// by hand, and each answer checked against what the database holds. The lab's conformance suite
// checks the same templates deployed, with the database knob off.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Manifest } from '../../app/templates/templates.ts';
import { checkDatabaseEndpoints, checkNoDatabase, fetchAnswer, freePort, postgresSkipReason, PrivatePostgres } from '../support/database-endpoints.ts';
import { bundledManifest, buildJvmTemplate, DATABASE_POOL as POOL, deployedStart, RunningServer } from '../support/template-servers.ts';
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

describe('JVM templates: the database endpoints against a private PostgreSQL', { skip: postgresSkipReason }, () => {
  const postgres = new PrivatePostgres();
  const built = new Map<string, { manifest: Manifest; dir: string }>();
  const servers: RunningServer[] = [];
  const runDir = mkdtempSync(join(tmpdir(), 'benchlab-jvm-db-run-'));

  before(async () => {
    await postgres.start();
    for (const id of Object.keys(TEMPLATES)) {
      const manifest = bundledManifest(id);
      // Vert.x also speaks MongoDB's protocol (tests/templates/jvm-mongo.test.ts).
      assert.deepEqual(manifest.database, { kind: 'postgresql', minVersion: 13, knob: 'database', ...(id === 'vertx' ? { mongodb: true } : {}) });
      built.set(id, { manifest, dir: await buildJvmTemplate(id, manifest, BUILD_DIR) });
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
    const { argv, environment } = deployedStart(manifest, { dir, run: runDir }, { variant, port, knobs: { database: databaseUrl !== 'none' } }, databaseUrl);
    const server = new RunningServer(argv, environment);
    servers.push(server);
    return { server, port };
  }

  async function serve(id: string, variant: string, databaseUrl: string): Promise<{ server: RunningServer; port: number }> {
    const started = await start(id, variant, databaseUrl);
    // Spring Boot starts in 10–20 s on a quiet lab and took past 30 s beside other suites' JVMs.
    await started.server.listens(`${id} ${variant}`, /listening on port/, 120_000);
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
