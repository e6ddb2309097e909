// The Node templates' database endpoints (server-templates/node-common/database.mjs) against a
// real PostgreSQL: each template is built the way a deploy builds it (npm ci and esbuild in a build
// workspace), its bundle started on this machine with BENCHLAB_DB_URL pointing at a private
// instance started here by hand (tests/support/database-endpoints.ts), and each answer is checked
// against what the database holds. Also: the pool each process takes, `none`, and a database that
// does not answer. The lab's conformance suite checks the same templates deployed.

import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { assertWorlds, checkDatabaseEndpoints, checkNoDatabase, fetchAnswer, fetchJson, freePort, postgresSkipReason, PrivatePostgres } from '../support/database-endpoints.ts';
import { DATABASE_POOL as POOL, nodeBundlesAgainst, type RunningServer } from '../support/template-servers.ts';
import { until } from '../support/until.ts';

const TEMPLATES = ['node', 'node-express', 'node-fastify', 'node-restify'];
/** Kept between runs: an unchanged template is not built again. */
const BUILD_DIR = join(tmpdir(), 'benchlab-test-node-template-builds');

describe('Node templates: the database endpoints against a private PostgreSQL', { skip: postgresSkipReason }, () => {
  const postgres = new PrivatePostgres();
  const bundles = nodeBundlesAgainst(postgres, TEMPLATES, BUILD_DIR, (built) => assert.deepEqual(built.artifacts, ['dist/server.mjs', 'dist/components.json']));
  const start = bundles.start;

  async function serve(id: string, databaseUrl = postgres.url, workers = 1): Promise<{ server: RunningServer; port: number }> {
    const started = await start(id, databaseUrl, workers);
    await started.server.listens(id, /listening on port|workers ready/, 20_000);
    return started;
  }

  for (const id of TEMPLATES) {
    test(`${id}: /db, /queries, /updates, /fortunes and /docs answer from the database`, async () => {
      const { server, port } = await serve(id);
      const framework = id === 'node' ? '' : ` ${id.slice('node-'.length)} \\d+\\.\\d+\\.\\d+`;
      const listening = server.said(/: listening on port/) ?? '';
      assert.match(listening, /^node v\d+\S* .*pg \d+\.\d+\.\d+/, 'says the bundled pg');
      assert.match(listening, new RegExp(`${framework}.*: listening on port ${port} .*database pool ${POOL}\\)$`), 'says the framework and the pool');
      await checkDatabaseEndpoints(port, postgres);
      // The contract's type exactly: Node composes no header of its own.
      assert.equal((await fetchAnswer(port, '/fortunes')).type, 'text/html; charset=utf-8');
      await server.stop();
      assert.equal(server.exitCode, 0, 'a graceful stop closes the pool and exits 0');
    });
  }

  test('node with 2 cluster workers: each worker takes half the pool', async () => {
    const { server, port } = await serve('node', postgres.url, 2);
    await until(() => server.output.filter((line) => /worker \d+ \(pid \d+\): listening/.test(line)).length === 2, 'both workers listen', 20_000);
    assert.equal(server.output.filter((line) => line.endsWith(`database pool ${Math.ceil(POOL / 2)})`)).length, 2, server.output.join('\n'));
    assertWorlds(await fetchJson(port, '/queries?n=50'), 50, '/queries?n=50 on two workers');
    await server.stop();
  });

  test('concurrent /updates over the same rows all succeed: rows are locked in id order, so none deadlocks', async () => {
    const { server, port } = await serve('node-fastify');
    // 24 requests of 500 rows each at once: every pair shares rows (25 on average), in random orders.
    const answers = await Promise.all(Array.from({ length: 24 }, () => fetchAnswer(port, '/updates?n=500')));
    assert.deepEqual(
      answers.map((answer) => answer.status),
      Array(24).fill(200),
      answers.find((answer) => answer.status !== 200)?.text,
    );
    assert.equal(server.said(/deadlock/), undefined);
    await server.stop();
  });

  test('none: the database endpoints answer 503 with what to do; the others serve', async () => {
    const { server, port } = await serve('node-restify', 'none');
    assert.ok(server.said(/no database\)$/), server.output.join('\n'));
    await checkNoDatabase(port);
    assert.equal((await fetchAnswer(port, '/hello')).text, 'hello world\n');
  });

  test('a database that does not answer fails the start with the URL (without its password) and why', async () => {
    const closed = `postgresql://benchlab:secret@127.0.0.1:${await freePort()}/benchlab`;
    const { server } = await start('node-fastify', closed);
    await until(() => server.exitCode !== null, 'the server gives up', 20_000);
    assert.equal(server.exitCode, 1);
    const said = server.output.join('\n');
    assert.match(said, /cannot reach the database at postgresql:\/\/benchlab@127\.0\.0\.1:\d+\/benchlab: .*ECONNREFUSED/);
    assert.doesNotMatch(said, /secret/);
  });
});
