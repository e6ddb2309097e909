// What the templates' /docs over MongoDB's protocol is checked against on this machine: the real
// FerretDB Benchlab ships (out/ferretdb, built on first use by scripts/build-ferretdb.ts), started
// here by hand on a random loopback port with its SQLite files in a temp dir and seeded by its own
// `seed`, as a deploy does; its `docs` command reads back what the collection holds.

import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SEEDED_DOCS } from '../../app/templates/template-database.ts';
import { mongoUrl } from '../../app/templates/template-mongo.ts';
import { buildFerretdb } from '../../scripts/build-ferretdb.ts';
import { fetchAnswer, fetchJson, freePort } from './database-endpoints.ts';
import { until } from './until.ts';

/** The answer of the other database endpoints with the database mongo (node-common/mongo.mjs, the Vert.x template). */
export const POSTGRES_ONLY = 'the database mongo serves /docs only: deploy with the knob database postgres for this endpoint\n';

const goMissing = spawnSync('go', ['version']).status !== 0 && !existsSync('/usr/local/go/bin/go');
/** Why FerretDB cannot be built here (no Go), unless CI requires the Go builds; false when it can. */
export const ferretdbSkipReason: string | false = process.platform === 'linux' && process.arch === 'x64' ? (goMissing && process.env.BENCHLAB_REQUIRE_ENGINE !== '1' ? 'no Go toolchain here to build FerretDB' : false) : 'FerretDB is built for linux/amd64';

type StoredDoc = { id: string; title: string; body: string; count: number };

export interface StoredDocs {
  count: number;
  /** The last one stored: the last in the database's own order. */
  newest: StoredDoc;
  /** The first 100 in the database's own order: what /docs answers. */
  first: StoredDoc[];
}

/** FerretDB with its SQLite files in a temp dir on a random loopback port, seeded with the contract's docs. */
export class PrivateFerretdb {
  readonly dir = mkdtempSync(join(tmpdir(), 'benchlab-test-ferretdb-'));
  binary = '';
  port = 0;
  version = '';
  #child: ChildProcess | null = null;
  #exited = false;

  get url(): string {
    return mongoUrl(this.port);
  }

  async start(): Promise<void> {
    const built = await buildFerretdb();
    assert.notEqual(built.status, 'unavailable', built.status === 'unavailable' ? built.reason : '');
    this.binary = (built as { binary: string }).binary;
    const portFile = join(this.dir, 'port');
    const child = spawn(this.binary, ['serve', '--dir', join(this.dir, 'data'), '--ports', String(await freePort()), '--port-file', portFile], { stdio: ['ignore', 'ignore', 'pipe'] });
    let said = '';
    child.stderr!.on('data', (chunk: Buffer) => (said += chunk.toString()));
    child.on('exit', () => (this.#exited = true));
    this.#child = child;
    await until(() => existsSync(portFile) || this.#exited, 'FerretDB listens', 30_000);
    assert.ok(existsSync(portFile), `FerretDB did not start: ${said}`);
    this.port = Number(readFileSync(portFile, 'utf8'));
    const seeded = this.#run(['seed', '--url', this.url, '--docs', String(SEEDED_DOCS)]);
    assert.match(seeded, /^seeded$/m);
    this.version = /^version (.+)$/m.exec(seeded)?.[1] ?? '';
  }

  #run(args: string[]): string {
    const result = spawnSync(this.binary, args, { encoding: 'utf8', timeout: 120_000 });
    assert.equal(result.status, 0, `benchlab-ferretdb ${args[0]}: ${result.stderr}`);
    return result.stdout;
  }

  docs(): StoredDocs {
    const lines = this.#run(['docs', '--url', this.url]).trim().split('\n');
    return {
      count: Number(/^count (\d+)$/.exec(lines[0]!)?.[1]),
      newest: JSON.parse(/^newest (.+)$/.exec(lines[1]!)?.[1] ?? 'null') as StoredDoc,
      first: lines.slice(2).map((line) => JSON.parse(line) as StoredDoc),
    };
  }

  stop(): void {
    this.#child?.kill('SIGTERM');
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** /docs of the server on `port` over `ferretdb`, POST and GET, and the other database endpoints' 503. */
export async function checkMongoEndpoints(port: number, ferretdb: PrivateFerretdb): Promise<void> {
  const before = ferretdb.docs();
  let last = before.newest;
  for (const [index, method] of ['POST', 'GET'].entries()) {
    const docs = (await fetchJson(port, '/docs', method)) as StoredDoc[];
    assert.equal(docs.length, 100, `${method} /docs answers 100 documents`);
    assert.deepEqual(Object.keys(docs[0]!), ['id', 'title', 'body', 'count']);
    assert.match(docs[0]!.id, /^[0-9a-f]{24}$/, 'the id is the ObjectId in hex');
    const stored = ferretdb.docs();
    // Unsorted, as the siege seed's select: the first 100 in the database's order, as stored.
    assert.deepEqual(docs, stored.first, `${method} /docs: 100 stored documents, unsorted`);
    assert.equal(stored.count, before.count + index + 1, `${method} /docs stores one document`);
    const inserted = stored.newest;
    assert.notDeepEqual(inserted, last, 'a new document is the newest');
    assert.match(inserted.id, /^[0-9a-f]{24}$/, 'the id is an ObjectId');
    assert.match(inserted.title, /^[a-z]{10}$/);
    assert.match(inserted.body, /^[a-z]{100}$/);
    assert.ok(Number.isInteger(inserted.count) && inserted.count >= 1 && inserted.count <= 10_000, `count ${inserted.count}`);
    last = inserted;
  }
  for (const path of ['/db', '/queries?n=2', '/updates', '/fortunes']) {
    const answer = await fetchAnswer(port, path);
    assert.deepEqual([answer.status, answer.type, answer.text], [503, 'text/plain', POSTGRES_ONLY], path);
  }
}
