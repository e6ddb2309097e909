// The Vert.x template's database `mongo` against the real FerretDB: built the way a deploy builds
// it (Maven in a build workspace), its jar started on this machine with the start command and
// environment its manifest renders for the knob database mongo, BENCHLAB_DB_URL pointing at a
// FerretDB started here by hand (tests/support/mongo-endpoints.ts), and /docs checked against what
// the collection holds, in both variants, through Vert.x's MongoDB client.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { databaseKindOf, type Manifest } from '../../app/templates/templates.ts';
import { fetchAnswer, freePort } from '../support/database-endpoints.ts';
import { checkMongoEndpoints, ferretdbSkipReason, PrivateFerretdb } from '../support/mongo-endpoints.ts';
import { bundledManifest, buildJvmTemplate, DATABASE_POOL as POOL, deployedStart, RunningServer } from '../support/template-servers.ts';

/** Kept between runs: an unchanged template is not built again. Its own (the PostgreSQL tests may build Vert.x at once). */
const BUILD_DIR = join(tmpdir(), 'benchlab-test-jvm-mongo-builds');

describe('Vert.x template: /docs with its MongoDB client against the real FerretDB', { skip: ferretdbSkipReason }, () => {
  const ferretdb = new PrivateFerretdb();
  const servers: RunningServer[] = [];
  const runDir = mkdtempSync(join(tmpdir(), 'benchlab-jvm-mongo-run-'));
  let manifest: Manifest;
  let dir = '';

  before(async () => {
    await ferretdb.start();
    manifest = bundledManifest('vertx');
    dir = await buildJvmTemplate('vertx', manifest, BUILD_DIR);
  });
  after(async () => {
    for (const server of servers) await server.stop();
    ferretdb.stop();
    rmSync(runDir, { recursive: true, force: true });
  });

  for (const variant of ['eventloop', 'blocking']) {
    test(`vertx ${variant}: /docs inserts one document and answers 100 stored, unsorted; the others answer 503`, async () => {
      const port = await freePort();
      const { argv, environment, settings } = deployedStart(manifest, { dir, run: runDir }, { variant, port, knobs: { database: 'mongo' } }, ferretdb.url);
      assert.equal(databaseKindOf(manifest, settings), 'mongodb');
      const server = new RunningServer(argv, environment);
      servers.push(server);
      await server.listens(`vertx ${variant}`, /listening on port/, 60_000);
      const listening = new RegExp(`listening on port ${port} \\(variant ${variant}, .*database mongodb://127\\.0\\.0\\.1:${ferretdb.port}/benchlab, pool ${POOL}, handlers in Java\\)$`);
      assert.ok(server.said(listening), server.output.join('\n'));
      await checkMongoEndpoints(port, ferretdb);
      assert.equal((await fetchAnswer(port, '/hello')).text, 'hello world\n', 'the other endpoints serve');
      await server.stop();
    });
  }
});
