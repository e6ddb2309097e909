// The restify template's database `mongo` against the real FerretDB: the template built the way a
// deploy builds it (npm ci and esbuild), its bundle started on this machine with BENCHLAB_DB_URL
// pointing at a FerretDB started here by hand (tests/support/mongo-endpoints.ts), and /docs checked
// against what the collection holds, through Mongoose. Also: a template without a MongoDB client
// refuses a mongodb:// URL at start. The lab's mongo test checks the same deployed.

import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fetchAnswer } from '../support/database-endpoints.ts';
import { checkMongoEndpoints, ferretdbSkipReason, PrivateFerretdb } from '../support/mongo-endpoints.ts';
import { DATABASE_POOL as POOL, nodeBundlesAgainst } from '../support/template-servers.ts';
import { until } from '../support/until.ts';

/** Kept between runs: an unchanged template is not built again. Its own (the PostgreSQL tests may build the same templates at once). */
const BUILD_DIR = join(tmpdir(), 'benchlab-test-node-mongo-builds');

describe('Node templates: /docs with Mongoose against the real FerretDB', { skip: ferretdbSkipReason }, () => {
  const ferretdb = new PrivateFerretdb();
  const bundles = nodeBundlesAgainst(ferretdb, ['node-restify', 'node'], BUILD_DIR);
  const start = (id: string) => bundles.start(id, ferretdb.url);

  test('FerretDB is the shipped version, seeded with the contract’s 100 documents', () => {
    assert.match(ferretdb.version, /^\d+\.\d+\.\d+$/, 'answers buildInfo with the MongoDB version it speaks');
    assert.equal(ferretdb.docs().count, 100);
  });

  test('node-restify: /docs inserts one document and answers 100 stored, unsorted, through Mongoose; the others answer 503', async () => {
    const { server, port } = await start('node-restify');
    await server.listens('restify', /listening on port/, 30_000);
    assert.match(server.said(/listening on port/) ?? '', new RegExp(`mongoose \\d+\\.\\d+\\.\\d+.*database pool ${POOL}\\)$`), 'says the bundled Mongoose and the pool');
    await checkMongoEndpoints(port, ferretdb);
    assert.equal((await fetchAnswer(port, '/json')).status, 200);
    await server.stop();
    assert.equal(server.exitCode, 0, 'a graceful stop closes the connection and exits 0');
  });

  test('a template without a MongoDB client refuses a mongodb:// URL at start, saying so', async () => {
    const { server } = await start('node');
    await until(() => server.exitCode !== null, 'the server gives up', 20_000);
    assert.equal(server.exitCode, 1);
    assert.match(server.output.join('\n'), /this template has no MongoDB client/);
  });
});
